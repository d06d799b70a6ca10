#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Cuts a byte stream into lines as chunks arrive, keeping a partial last line for the next chunk.
///
/// A line longer than `maximumLineBytes` is never buffered whole: once it passes the limit it is reported, with its
/// number and its first `maximumLineBytes` bytes, and the rest of it is skipped up to its newline.
public struct LineSplitter: Sendable {
    /// The longest line handed out whole, in bytes without the newline; `InputLimits.default` unless given.
    public let maximumLineBytes: Int
    private var partial: [UInt8] = []
    /// Inside an over-long line that has been reported: bytes are dropped until the next newline.
    private var skipping = false
    /// How many lines have been handed out or reported, so the next one's number is this plus one.
    public private(set) var linesEmitted = 0

    /// A splitter at the start of a stream: no partial line, numbering from 1.
    public init(maximumLineBytes: Int = InputLimits.default.maximumLineBytes) {
        self.maximumLineBytes = Swift.max(1, maximumLineBytes)
    }

    /// Calls `body` with each complete line in `chunk` (without its `\n`) and its 1-based line number, and `tooLong`
    /// with the first `maximumLineBytes` bytes and the number of each line past the limit, as soon as it passes it.
    public mutating func feed(
        _ chunk: UnsafeRawBufferPointer,
        _ body: (UnsafeBufferPointer<UInt8>, Int) -> Void,
        tooLong: (UnsafeBufferPointer<UInt8>, Int) -> Void
    ) {
        let bytes = chunk.bindMemory(to: UInt8.self)
        guard let base = bytes.baseAddress else { return }
        var start = 0
        while start < bytes.count {
            guard let found = memchr(base + start, 0x0A, bytes.count - start) else { break }
            let newline = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
            if skipping {
                skipping = false
            } else if partial.count + (newline - start) > maximumLineBytes {
                startSkipping(UnsafeBufferPointer(rebasing: bytes[start..<newline]), tooLong)
                skipping = false
            } else if partial.isEmpty {
                linesEmitted += 1
                body(UnsafeBufferPointer(rebasing: bytes[start..<newline]), linesEmitted)
            } else {
                linesEmitted += 1
                partial.append(contentsOf: bytes[start..<newline])
                partial.withUnsafeBufferPointer { body($0, linesEmitted) }
                partial.removeAll(keepingCapacity: true)
            }
            start = newline + 1
        }
        guard !skipping, start < bytes.count else { return }
        if partial.count + (bytes.count - start) > maximumLineBytes {
            startSkipping(UnsafeBufferPointer(rebasing: bytes[start...]), tooLong)
        } else {
            partial.append(contentsOf: bytes[start...])
        }
    }

    /// Calls `body` with each complete line in `chunk` (without its `\n`) and its 1-based line number; a line past
    /// `maximumLineBytes` is handed over cut at the limit, so a decoder reports it as malformed rather than nothing.
    public mutating func feed(_ chunk: UnsafeRawBufferPointer, _ body: (UnsafeBufferPointer<UInt8>, Int) -> Void) {
        feed(chunk, body, tooLong: body)
    }

    /// Hands out what is left after the last newline, as a final line, if anything is.
    public mutating func finish(_ body: (UnsafeBufferPointer<UInt8>, Int) -> Void) {
        skipping = false
        guard !partial.isEmpty else { return }
        linesEmitted += 1
        partial.withUnsafeBufferPointer { body($0, linesEmitted) }
        partial.removeAll()
    }

    /// Reports the line that `more` takes past the limit, and drops what was kept of it.
    private mutating func startSkipping(_ more: UnsafeBufferPointer<UInt8>, _ tooLong: (UnsafeBufferPointer<UInt8>, Int) -> Void) {
        linesEmitted += 1
        let kept = maximumLineBytes - partial.count
        partial.append(contentsOf: more.prefix(kept))
        partial.withUnsafeBufferPointer { tooLong($0, linesEmitted) }
        partial = []
        skipping = true
    }
}
