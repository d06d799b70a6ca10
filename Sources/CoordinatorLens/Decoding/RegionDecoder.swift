#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Where an item made on the second thread came from: the offset and length of its line's bytes in the region
/// (length 0 for an item without bytes: an over-long line, an invented session).
struct RegionLinePlace: Sendable {
    var offset: Int
    var count: Int
}

/// Items in blocks the decoding thread fills and the reader's thread empties, moving each item out: an Array would
/// be copied out of item by item and released after, retaining and releasing every string twice over, which cost
/// the reader's thread as much as applying the events.
struct RegionBatch: @unchecked Sendable {
    private let items: UnsafeMutablePointer<StreamReader.Item>
    private let places: UnsafeMutablePointer<RegionLinePlace>
    private(set) var count = 0
    private let capacity: Int

    init(capacity: Int) {
        items = .allocate(capacity: capacity)
        places = .allocate(capacity: capacity)
        self.capacity = capacity
    }

    /// Items in the largest batch: enough that handing a batch over costs little per item.
    static let largest = 1_024

    /// Appends the item; a batch that is then full goes to `handoff`, and a new one, twice as large up to
    /// `largest`, takes its place.
    mutating func append(
        _ item: consuming StreamReader.Item, at place: RegionLinePlace, handingFullTo handoff: BatchHandoff<RegionBatch>
    ) {
        (items + count).initialize(to: item)
        (places + count).initialize(to: place)
        count += 1
        guard count == capacity else { return }
        handoff.put(self)
        self = RegionBatch(capacity: Swift.min(2 * capacity, Self.largest))
    }

    /// Hands each item to `body` in order, then frees the blocks; the batch must not be used after.
    consuming func drain(_ body: (consuming StreamReader.Item, RegionLinePlace) -> Void) {
        for index in 0..<count { body((items + index).move(), places[index]) }
        items.deallocate()
        places.deallocate()
    }
}

/// Splits and decodes a part of the input on a thread of its own and makes its items, in batches, while the reader's
/// thread hands on the items already made: decoding is about 60% of reading a recording, so on two cores the
/// reader's own thread is left with what the caller does with the items.
///
/// The region must start at a line's start and end with a newline, and its bytes must stay valid until `join`
/// returns; the reader guarantees both by joining before its `consume` call returns.
final class RegionDecoder: @unchecked Sendable {
    /// Items in the first batch: few, so the reader, which waits for it, starts soon after the decoder does. Each
    /// batch after is twice as large, up to `RegionBatch.largest`.
    private static let firstBatchSize = 64

    private let region: UnsafeRawBufferPointer
    private let maxLineBytes: Int
    private let linesBefore: Int
    /// The batches, at most 8 ahead of the reader (about 1 MB of decoded lines).
    let handoff = BatchHandoff<RegionBatch>(capacity: 8)
    // Written by the decoding thread, read by the reader's thread only after `join`.
    private var strings: StringInterner
    private var tracker: RunTracker
    private var linesSplit = 0
    #if canImport(Glibc)
    private var thread = pthread_t()
    #else
    private var thread: pthread_t?
    #endif

    /// A decoder of `region`, whose first line is line `linesBefore + 1` and belongs to `tracker`'s run, caching text
    /// in `strings`.
    init(region: UnsafeRawBufferPointer, maxLineBytes: Int, linesBefore: Int, strings: StringInterner, tracker: RunTracker) {
        self.region = region
        self.maxLineBytes = maxLineBytes
        self.linesBefore = linesBefore
        self.strings = strings
        self.tracker = tracker
    }

    /// Starts the thread; false when the system could not make one, and then nothing was decoded.
    func start() -> Bool {
        let context = Unmanaged.passRetained(self).toOpaque()
        // The start routine's argument is optional in Glibc's and Musl's headers and not in Darwin's; `main` takes both.
        let status = pthread_create(&thread, nil, { RegionDecoder.main($0) }, context)
        guard status == 0 else {
            Unmanaged<RegionDecoder>.fromOpaque(context).release()
            return false
        }
        return true
    }

    /// Waits for the thread to end (after its last batch was taken); how many lines it split, its text cache, and
    /// the run the line after the region belongs to.
    func join() -> (linesSplit: Int, strings: StringInterner, tracker: RunTracker) {
        #if canImport(Glibc)
        pthread_join(thread, nil)
        #else
        pthread_join(thread!, nil)
        #endif
        return (linesSplit, strings, tracker)
    }

    private static func main(_ context: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
        Unmanaged<RegionDecoder>.fromOpaque(context!).takeRetainedValue().run()
        return nil
    }

    private func run() {
        // Locals, not the stored properties, and no local function: either would cost a run-time exclusivity check
        // per line.
        var strings = self.strings
        var tracker = self.tracker
        var splitter = LineSplitter(maxLineBytes: maxLineBytes, linesBefore: linesBefore)
        var batch = RegionBatch(capacity: Self.firstBatchSize)
        let start = region.baseAddress!
        let handoff = self.handoff
        let limit = maxLineBytes
        splitter.feed(
            region,
            onOverlong: { number, first in
                // A region starts and ends at a line's end, so an over-long line's first bytes lie in it.
                let offset = first.baseAddress.map { start.distance(to: UnsafeRawPointer($0)) } ?? -1
                let inRegion = offset >= 0 && offset + first.count <= region.count
                let place = RegionLinePlace(offset: inRegion ? offset : 0, count: inRegion ? first.count : 0)
                tracker.overlong(line: number, limit: limit) { item, withBytes in
                    batch.append(item, at: withBytes ? place : RegionLinePlace(offset: 0, count: 0), handingFullTo: handoff)
                }
            },
            { line, number in
                let place = RegionLinePlace(offset: start.distance(to: UnsafeRawPointer(line.baseAddress!)), count: line.count)
                tracker.itemsApart(EventDecoder.decode(line, lineNumber: number, strings: &strings), line: number) { item, withBytes in
                    batch.append(item, at: withBytes ? place : RegionLinePlace(offset: 0, count: 0), handingFullTo: handoff)
                }
            })
        if batch.count > 0 { handoff.put(batch) } else { batch.drain { _, _ in } }
        self.strings = strings
        self.tracker = tracker
        linesSplit = splitter.linesEmitted - linesBefore
        handoff.finish()
    }
}
