#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

private let hasSecondCore = sysconf(Int32(_SC_NPROCESSORS_ONLN)) > 1

/// Reads one wire-format stream as its chunks arrive: cuts it into lines, decodes them and says which run each
/// belongs to. No I/O: the caller brings the bytes (from a file or a socket) and decides what to keep. A large chunk
/// is decoded on a second thread while this one hands the items on; that thread ends before `consume` returns.
public struct StreamReader: Sendable {
    /// What one line of the stream turned out to be, with the run it belongs to.
    public enum Item: Hashable, Sendable {
        /// A session line: from here on lines belong to `header.run` (a run seen before continues).
        case session(SessionHeader, line: Int)
        /// Lines came before any session line: they are read as a session of app `unknown` under this invented
        /// header, and `note` says so. Comes right before the first such line's own item.
        case inventedSession(SessionHeader, note: Diagnostic)
        /// An event of `run`.
        case record(EventRecord, run: String)
        /// A line of `run` that could not be read; the diagnostic names the line and the problem.
        case malformed(Diagnostic, run: String)
        /// A line of `run` longer than the reader's limit, skipped up to its newline without being kept.
        case overlong(Diagnostic, run: String)
    }

    private var splitter: LineSplitter
    /// One interner for the whole stream: each distinct type name or call site is allocated once.
    private var strings = StringInterner()
    /// The second thread's interner, kept from chunk to chunk (a thread of its own needs a cache of its own).
    private var regionStrings = StringInterner()
    /// Chunks with at least this many bytes of whole lines have those lines split and decoded on a second thread
    /// while this one takes them; by default 256 KiB, or never on a machine with one core. A thread costs tens of
    /// microseconds to start, and 256 KiB of lines take about half a millisecond to decode. Tests set 0 (always) or
    /// `.max` (never).
    package var concurrentRegionBytes = hasSecondCore ? 1 << 18 : .max
    /// How many regions a second thread decoded, so tests can tell that they exercised it.
    package private(set) var regionsDecodedElsewhere = 0
    private var tracker: RunTracker
    /// Holds the string ids this reader decodes until whoever takes the items holds them; nil keeps them for good
    /// (see `IDSpellings`).
    package var idScope: IDSpellingScope? {
        didSet {
            strings.idScope = idScope
            regionStrings.idScope = idScope
        }
    }
    /// The run the next line belongs to; nil before any line of the stream.
    package var run: String? { tracker.run }

    /// A reader at the start of a stream. Lines longer than `maxLineBytes` are skipped and reported; lines before
    /// any session line go to a run named `<inventedRunPrefix>line-<N>`, N the first such line.
    public init(maxLineBytes: Int = .max, inventedRunPrefix: String = "") {
        splitter = LineSplitter(maxLineBytes: maxLineBytes)
        tracker = RunTracker(inventedRunPrefix: inventedRunPrefix)
    }

    /// Lines handed out so far, over-long ones included.
    package var linesRead: Int { splitter.linesEmitted }

    /// Calls `body` with each item the complete lines of `chunk` make, and the line's bytes (without its newline; for an
    /// over-long line its first bytes only, at most 64, so a receiver can tell which event it skipped; empty for an
    /// invented session).
    public mutating func consume(_ chunk: UnsafeRawBufferPointer, _ body: (Item, UnsafeBufferPointer<UInt8>) -> Void) {
        if chunk.count >= concurrentRegionBytes, consumeOnTwoThreads(chunk, body) { return }
        consumeHere(chunk, body)
    }

    private mutating func consumeHere(_ chunk: UnsafeRawBufferPointer, _ body: (Item, UnsafeBufferPointer<UInt8>) -> Void) {
        var splitter = self.splitter
        splitter.feed(chunk, onOverlong: { number, start in overlong(number, start, body) }, { line, number in take(line, number, body) })
        self.splitter = splitter
    }

    /// Ends the stream; a last line without a newline is read too.
    public mutating func finish(_ body: (Item, UnsafeBufferPointer<UInt8>) -> Void) {
        var splitter = self.splitter
        splitter.finish { line, number in take(line, number, body) }
        self.splitter = splitter
    }

    /// The chunk's whole lines, from just after its first newline to its last one, go to a `RegionDecoder`; the
    /// bytes before (which end a line the last chunk began) and after (which begin one) are read here. Items come out
    /// in the same order and with the same content as on one thread. False, with nothing read, when the whole lines
    /// are too few to be worth a thread or no thread could be started.
    private mutating func consumeOnTwoThreads(
        _ chunk: UnsafeRawBufferPointer, _ body: (Item, UnsafeBufferPointer<UInt8>) -> Void
    ) -> Bool {
        guard let base = chunk.baseAddress, let first = memchr(base, 0x0A, chunk.count) else { return false }
        let regionStart = base.distance(to: UnsafeRawPointer(first)) + 1
        var regionEnd = chunk.count
        while regionEnd > regionStart, chunk[regionEnd - 1] != 0x0A { regionEnd -= 1 }
        guard regionEnd > regionStart, regionEnd - regionStart >= concurrentRegionBytes else { return false }
        consumeHere(UnsafeRawBufferPointer(rebasing: chunk[..<regionStart]), body)
        let decoder = RegionDecoder(
            region: UnsafeRawBufferPointer(rebasing: chunk[regionStart..<regionEnd]), maxLineBytes: splitter.maxLineBytes,
            linesBefore: splitter.linesEmitted, strings: regionStrings, tracker: tracker)
        // Handed over whole, so the decoder's writes copy nothing; it comes back with `join`.
        regionStrings = .uncached
        guard decoder.start() else {
            regionStrings = StringInterner()
            regionStrings.idScope = idScope
            consumeHere(UnsafeRawBufferPointer(rebasing: chunk[regionStart...]), body)
            return true
        }
        let lines = base.assumingMemoryBound(to: UInt8.self) + regionStart
        while let batch = decoder.handoff.take() {
            batch.drain { item, place in
                body(item, UnsafeBufferPointer(start: place.count > 0 ? lines + place.offset : nil, count: place.count))
            }
        }
        let finished = decoder.join()
        regionsDecodedElsewhere += 1
        regionStrings = finished.strings
        tracker = finished.tracker
        splitter.skip(linesSplitElsewhere: finished.linesSplit)
        consumeHere(UnsafeRawBufferPointer(rebasing: chunk[regionEnd...]), body)
        return true
    }

    private mutating func take(
        _ line: UnsafeBufferPointer<UInt8>, _ number: Int, _ body: (Item, UnsafeBufferPointer<UInt8>) -> Void
    ) {
        tracker.items(EventDecoder.decode(line, lineNumber: number, strings: &strings), line: number) { item, withBytes in
            body(item, withBytes ? line : UnsafeBufferPointer(start: nil, count: 0))
        }
    }

    private mutating func overlong(_ number: Int, _ start: UnsafeBufferPointer<UInt8>, _ body: (Item, UnsafeBufferPointer<UInt8>) -> Void) {
        tracker.overlong(line: number, limit: splitter.maxLineBytes) { item, withBytes in
            body(item, withBytes ? start : UnsafeBufferPointer(start: nil, count: 0))
        }
    }
}
