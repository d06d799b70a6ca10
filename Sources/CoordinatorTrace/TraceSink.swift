/// Where a tracer's NDJSON lines go. Sinks are called on the tracer's writer thread only, never on the app's.
public protocol TraceSink: AnyObject, Sendable {
    /// Takes complete lines (each ending in a newline) in order and returns how many it delivered; the rest are
    /// offered again on a later tick, so a sink that cannot deliver now returns 0 rather than waiting.
    func deliver(_ lines: ArraySlice<[UInt8]>) -> Int
    /// Called once after the last delivery of the session.
    func close()
    /// Called once when the session ends, before its last deliveries: a sink waiting out a retry delay tries again
    /// now, since `end()` gives up on a sink that takes nothing.
    func prepareForLastDelivery()
    /// Whether the session line asks the receiver for acknowledgements (`"acks":1`, docs/PROTOCOL.md).
    var asksForAcknowledgements: Bool { get }
    /// Called when the session ends, after its lines were delivered: waits at most `timeout` seconds until the
    /// receiver has acknowledged them all; true when it has (or the sink has no acknowledgements).
    func awaitAcknowledgements(timeout: Double) -> Bool
    /// Gives up waiting: how many delivered lines are surely lost, to report as dropped.
    func abandonUnacknowledged() -> Int
    /// Whether a delivery that took nothing may take more soon (a live connection whose buffer is full), so the
    /// session's end waits for it rather than giving up.
    var holdsLiveConnection: Bool { get }
}

extension TraceSink {
    /// Most sinks deliver at once and have nothing to prepare.
    public func prepareForLastDelivery() {}
    /// Most sinks have no receiver that acknowledges.
    public var asksForAcknowledgements: Bool { false }
    public func awaitAcknowledgements(timeout: Double) -> Bool { true }
    public func abandonUnacknowledged() -> Int { 0 }
    /// A sink that took nothing will take nothing soon either.
    public var holdsLiveConnection: Bool { false }
}

extension TraceSink where Self == FileSink {
    /// Writes the stream to a file, replacing what it held (one run per file), or after it with `appending`.
    public static func file(_ path: String, appending: Bool = false) -> FileSink { FileSink(path: path, appending: appending) }
}

extension TraceSink where Self == MemorySink {
    /// Keeps the stream in memory, for tests.
    public static func memory() -> MemorySink { MemorySink() }
}

extension TraceSink where Self == TCPSink {
    /// Streams to `coordlens listen` at host:port, reconnecting with backoff; `token` is the one `listen` printed when
    /// it binds beyond loopback.
    public static func tcp(host: String = "127.0.0.1", port: Int, token: String? = nil) -> TCPSink {
        TCPSink(host: host, port: port, token: token)
    }
}
