/// The events callers queued for the writer, bounded: past the capacity they are counted, never kept.
///
/// Kept in chunks of `chunkSize`: a burst that fills the queue never has a caller copy what is queued (a flat array
/// doubling under the tracer's lock would copy megabytes on the app's thread), memory grows only as far as the
/// largest burst, and the chunks the writer empties come back for reuse.
struct EventQueue {
    static let chunkSize = 4_096
    /// Emptied chunks kept for reuse at most; the rest are freed, so a quiet app keeps little.
    static let spareChunks = 4
    let capacity: Int
    private var chunks: [[RawEvent]] = []
    private var count = 0
    private var spare: [[RawEvent]] = []
    /// Events refused because the queue was full since the writer last drained it; they never got a seq.
    private(set) var refused = 0
    /// At this many queued events the writer is woken before its tick, so a burst is taken while it still fits.
    let wakeMark: Int
    /// Wakes the writer; called under the tracer's lock, once per crossing of `wakeMark`.
    private let wake: @Sendable () -> Void

    init(capacity: Int, wake: @escaping @Sendable () -> Void = {}) {
        self.capacity = capacity
        self.wake = wake
        wakeMark = min(capacity, max(1_024, capacity / 8))
    }

    var isEmpty: Bool { count == 0 }

    /// Queues an event, or counts it as refused when the queue is full.
    mutating func append(_ event: RawEvent) {
        if count < capacity {
            appendAlways(event)
            if count == wakeMark { wake() }
        } else {
            refused += 1
        }
    }

    /// Queues an event the inspector must get (the session's end), over a full queue if need be.
    mutating func appendAlways(_ event: RawEvent) {
        if chunks.isEmpty || chunks[chunks.count - 1].count == Self.chunkSize {
            var chunk = spare.popLast() ?? []
            chunk.reserveCapacity(Self.chunkSize)
            chunks.append(chunk)
        }
        chunks[chunks.count - 1].append(event)
        count += 1
    }

    /// Hands the queued chunks to the writer in exchange for the ones it emptied (kept for reuse), so a steady stream
    /// allocates nothing; returns the count refused since the last drain.
    mutating func drain(into drained: inout [[RawEvent]]) -> Int {
        for var chunk in drained where spare.count < Self.spareChunks {
            chunk.removeAll(keepingCapacity: true)
            spare.append(chunk)
        }
        drained = chunks
        chunks.removeAll(keepingCapacity: true)
        count = 0
        defer { refused = 0 }
        return refused
    }
}
