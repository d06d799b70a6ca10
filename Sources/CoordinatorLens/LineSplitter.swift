#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Cuts a byte stream into lines as chunks arrive, keeping a partial last line for the next chunk.
public struct LineSplitter: Sendable {
    private var partial: [UInt8] = []
    /// How many complete lines have been handed out, so the next one's number is this plus one.
    public private(set) var linesEmitted = 0

    /// A splitter at the start of a stream: no partial line, numbering from 1.
    public init() {}

    /// Calls `body` with each complete line in `chunk` (without its `\n`) and its 1-based line number.
    public mutating func feed(_ chunk: UnsafeRawBufferPointer, _ body: (UnsafeBufferPointer<UInt8>, Int) -> Void) {
        let bytes = chunk.bindMemory(to: UInt8.self)
        var start = 0
        while start < bytes.count, let found = memchr(bytes.baseAddress! + start, 0x0A, bytes.count - start) {
            let newline = bytes.baseAddress!.distance(to: found.assumingMemoryBound(to: UInt8.self))
            linesEmitted += 1
            if partial.isEmpty {
                body(UnsafeBufferPointer(rebasing: bytes[start..<newline]), linesEmitted)
            } else {
                partial.append(contentsOf: bytes[start..<newline])
                partial.withUnsafeBufferPointer { body($0, linesEmitted) }
                partial.removeAll(keepingCapacity: true)
            }
            start = newline + 1
        }
        partial.append(contentsOf: bytes[start...])
    }

    /// Hands out what is left after the last newline, as a final line, if anything is.
    public mutating func finish(_ body: (UnsafeBufferPointer<UInt8>, Int) -> Void) {
        guard !partial.isEmpty else { return }
        linesEmitted += 1
        partial.withUnsafeBufferPointer { body($0, linesEmitted) }
        partial.removeAll()
    }
}
