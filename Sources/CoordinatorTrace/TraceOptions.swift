/// Limits and timings of a tracing session; the defaults suit a debug build.
public struct TraceOptions: Sendable {
    /// Events the calling threads may queue before the writer takes them; past that they are counted and dropped.
    public var bufferCapacity: Int = 16_384
    /// Encoded lines kept while the sink cannot deliver (no inspector listening); past that they are dropped.
    public var backlogCapacity: Int = 10_000
    /// How often the writer wakes to encode, deliver and look for deallocated coordinators and screens.
    public var tickInterval: Double = 0.01
    /// How long `end()` waits for the sink to take what is left.
    public var endTimeout: Double = 2

    /// Out-of-range values are clamped when a session starts, never fatal; times are in seconds.
    public init(bufferCapacity: Int = 16_384, backlogCapacity: Int = 10_000, tickInterval: Double = 0.01, endTimeout: Double = 2) {
        self.bufferCapacity = bufferCapacity
        self.backlogCapacity = backlogCapacity
        self.tickInterval = tickInterval
        self.endTimeout = endTimeout
    }

    /// The same options brought into a range the writer can run with: the hook must not crash or spin on a typo.
    var sanitized: TraceOptions {
        func clamp(_ value: Double, _ range: ClosedRange<Double>) -> Double {
            value.isFinite ? min(max(value, range.lowerBound), range.upperBound) : range.lowerBound
        }
        return TraceOptions(
            bufferCapacity: max(1, bufferCapacity),
            backlogCapacity: max(1, backlogCapacity),
            tickInterval: clamp(tickInterval, 0.001...1),
            endTimeout: clamp(endTimeout, 0...60)
        )
    }
}
