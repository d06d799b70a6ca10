import Foundation

/// Keeps every line in memory; tests read them back.
public final class MemorySink: TraceSink, @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [[UInt8]] = []
    private var closed = false

    /// An empty sink; read what it got through `lines` or `bytes`.
    public init() {}

    public func deliver(_ lines: ArraySlice<[UInt8]>) -> Int {
        lock.lock()
        defer { lock.unlock() }
        stored.append(contentsOf: lines)
        return lines.count
    }

    public func close() {
        lock.lock()
        closed = true
        lock.unlock()
    }

    /// Whether the tracer has ended the session.
    public var isClosed: Bool {
        lock.lock()
        defer { lock.unlock() }
        return closed
    }

    /// The lines so far, without their newlines.
    public var lines: [String] {
        lock.lock()
        defer { lock.unlock() }
        return stored.map { String(decoding: $0.dropLast(), as: UTF8.self) }
    }

    /// The stream so far as bytes, ready for the inspector's decoder.
    public var bytes: [UInt8] {
        lock.lock()
        defer { lock.unlock() }
        return Array(stored.joined())
    }
}
