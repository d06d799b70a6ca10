#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Cuts a byte stream into lines as chunks arrive, keeping a partial last line for the next chunk.
package struct LineSplitter: Sendable {
    private var partial: [UInt8] = []
    /// True while the rest of an over-long line is skipped up to its newline.
    private var discarding = false
    /// The longest line (without its newline) handed out; a longer one is reported to `onOverlong` and skipped.
    package let maxLineBytes: Int
    /// How many complete lines have been handed out, so the next one's number is this plus one.
    package private(set) var linesEmitted = 0

    /// A splitter at the start of a stream: no partial line, numbering from 1; lines longer than `maxLineBytes` are
    /// skipped without being buffered.
    package init(maxLineBytes: Int = .max) {
        self.maxLineBytes = maxLineBytes
    }

    /// A splitter for a part of a stream that starts at a line's start, after `linesBefore` lines.
    package init(maxLineBytes: Int, linesBefore: Int) {
        self.maxLineBytes = maxLineBytes
        linesEmitted = linesBefore
    }

    /// Whether the next byte fed starts a line: no partial line is kept and none is being skipped.
    package var isAtLineStart: Bool { partial.isEmpty && !discarding }

    /// Counts lines another splitter handed out, for a part of the stream given to it instead of this one.
    package mutating func skip(linesSplitElsewhere count: Int) {
        precondition(isAtLineStart, "a part split elsewhere must start at a line's start")
        linesEmitted += count
    }

    /// How many of an over-long line's first bytes `onOverlong` is given: enough for the `{"seq":N` a producer writes
    /// first, so a receiver can say which event it refused.
    package static let overlongPrefixBytes = 64

    /// Calls `body` with each complete line in `chunk` (without its `\n`) and its 1-based line number; a line that
    /// grows past `maxLineBytes` is reported once to `onOverlong`, with its number and its first bytes (at most
    /// `overlongPrefixBytes`), as soon as it does, and skipped.
    package mutating func feed(
        _ chunk: UnsafeRawBufferPointer, onOverlong: (Int, UnsafeBufferPointer<UInt8>) -> Void = { _, _ in },
        _ body: (UnsafeBufferPointer<UInt8>, Int) -> Void
    ) {
        let bytes = chunk.bindMemory(to: UInt8.self)
        var start = 0
        while start < bytes.count, let found = memchr(bytes.baseAddress! + start, 0x0A, bytes.count - start) {
            let newline = bytes.baseAddress!.distance(to: found.assumingMemoryBound(to: UInt8.self))
            defer { start = newline + 1 }
            if discarding {
                discarding = false
                continue
            }
            linesEmitted += 1
            if partial.count + (newline - start) > maxLineBytes {
                reportOverlong(bytes, from: start, to: newline, onOverlong)
                partial.removeAll()
            } else if partial.isEmpty {
                body(UnsafeBufferPointer(rebasing: bytes[start..<newline]), linesEmitted)
            } else {
                partial.append(contentsOf: bytes[start..<newline])
                partial.withUnsafeBufferPointer { body($0, linesEmitted) }
                partial.removeAll(keepingCapacity: true)
            }
        }
        guard start < bytes.count, !discarding else { return }
        if partial.count + (bytes.count - start) > maxLineBytes {
            discarding = true
            linesEmitted += 1
            reportOverlong(bytes, from: start, to: bytes.count, onOverlong)
            partial = []
        } else {
            partial.append(contentsOf: bytes[start...])
        }
    }

    /// Tells `onOverlong` of the line that began with `partial` and goes on with `bytes[start..<end]`.
    private func reportOverlong(
        _ bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int, _ onOverlong: (Int, UnsafeBufferPointer<UInt8>) -> Void
    ) {
        guard partial.isEmpty else {
            var first = Array(partial.prefix(Self.overlongPrefixBytes))
            first += bytes[start..<min(end, start + max(0, Self.overlongPrefixBytes - first.count))]
            return first.withUnsafeBufferPointer { onOverlong(linesEmitted, $0) }
        }
        onOverlong(linesEmitted, UnsafeBufferPointer(rebasing: bytes[start..<min(end, start + Self.overlongPrefixBytes)]))
    }

    /// Hands out what is left after the last newline, as a final line, if anything is.
    package mutating func finish(_ body: (UnsafeBufferPointer<UInt8>, Int) -> Void) {
        discarding = false
        guard !partial.isEmpty else { return }
        linesEmitted += 1
        partial.withUnsafeBufferPointer { body($0, linesEmitted) }
        partial.removeAll()
    }
}
