/// Where a tracer's NDJSON lines go. Sinks are called on the tracer's writer thread only, never on the app's.
public protocol TraceSink: AnyObject, Sendable {
    /// Takes complete lines (each ending in a newline) in order and returns how many it delivered; the rest are
    /// offered again on a later tick, so a sink that cannot deliver now returns 0 rather than waiting.
    func deliver(_ lines: ArraySlice<[UInt8]>) -> Int
    /// Called once after the last delivery of the session.
    func close()
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
