@_spi(Locking) import CoordinatorWire

/// Keeps every line in memory; tests read them back.
public final class MemorySink: TraceSink, Sendable {
    private let state = LockedBox((lines: [[UInt8]](), closed: false))

    /// An empty sink; read what it got through `lines` or `bytes`.
    public init() {}

    public func deliver(_ lines: ArraySlice<[UInt8]>) -> Int {
        state.withLock { $0.lines.append(contentsOf: lines) }
        return lines.count
    }

    public func close() {
        state.withLock { $0.closed = true }
    }

    /// Whether the tracer has ended the session.
    public var isClosed: Bool {
        state.withLock { $0.closed }
    }

    /// The lines so far, without their newlines.
    public var lines: [String] {
        state.withLock { $0.lines }.map { String(decoding: $0.dropLast(), as: UTF8.self) }
    }

    /// The stream so far as bytes, ready for the inspector's decoder.
    public var bytes: [UInt8] {
        Array(state.withLock { $0.lines }.joined())
    }
}
