/// A session's own account of its events, to hold a recording against: every event it produced lands in the
/// recording or in a `dropped` count, so `events` equals the events recorded plus `dropped`.
public struct TraceCounts: Sendable, Hashable {
    /// Events the session produced (coordinator events, marks, heartbeats, its end), those it had to drop included;
    /// its `dropped` lines are not events.
    public var events: Int
    /// The total of the counts its `dropped` lines reported.
    public var dropped: Int
}
