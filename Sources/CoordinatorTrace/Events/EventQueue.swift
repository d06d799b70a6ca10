/// The events callers queued for the writer, bounded: past the capacity they are counted, never kept.
///
/// One flat array reserved at its capacity when the session starts, swapped with the writer's at each drain: an append
/// is the cheapest a caller can pay (a chunked queue measured 4–5% more per call), and no append ever regrows and
/// copies what is queued under the tracer's lock. The reservation is address space; pages are touched only as far as
/// the largest burst.
struct EventQueue {
    let capacity: Int
    private var pending: [RawEvent] = []
    /// Events refused because the queue was full since the writer last drained it; they never got a seq.
    private(set) var refused = 0
    init(capacity: Int) {
        self.capacity = capacity
        pending.reserveCapacity(capacity)
    }

    var isEmpty: Bool { pending.isEmpty }

    /// Queues an event, or counts it as refused when the queue is full.
    mutating func append(_ event: RawEvent) {
        if pending.count < capacity {
            pending.append(event)
        } else {
            refused += 1
        }
    }

    /// Queues an event the inspector must get (the session's end), over a full queue if need be.
    mutating func appendAlways(_ event: RawEvent) {
        pending.append(event)
    }

    /// Hands the queued events to the writer in exchange for its array, emptied outside the lock (so no event is
    /// destroyed under it) and reserved as this one, so neither side allocates; returns the count refused since the
    /// last drain.
    mutating func drain(into drained: inout [RawEvent]) -> Int {
        swap(&pending, &drained)
        if pending.capacity < capacity { pending.reserveCapacity(capacity) }
        defer { refused = 0 }
        return refused
    }
}
