/// A session's own account of its events, to hold a recording against: every event it produced is recorded, counted
/// `dropped`, or on a line the inspector had not confirmed when `end()` stopped waiting (`unconfirmed`), which a
/// recording may or may not hold; so `events` = events recorded + `dropped` + the unconfirmed ones a recording lacks.
public struct TraceCounts: Sendable, Hashable {
    /// Events the session produced (coordinator events, marks, heartbeats, its end), those it had to drop included;
    /// its `dropped` lines are not events.
    public var events: Int
    /// Events it dropped: the total of the counts its `dropped` lines reported, and its end when nothing took it.
    public var dropped: Int
    /// Events on lines sent to `coordlens listen` and not confirmed when `end()` stopped waiting (a slow inspector,
    /// a relay in between): each is in the recording or lost, nobody can say which; 0 with file and memory sinks and
    /// whenever the inspector confirmed everything. A `dropped` line among them is not counted here: its events are
    /// in `dropped`, though a recording that lacks the line lacks their report too.
    public var unconfirmed: Int = 0
    /// The seqs of those lines, to match against a recording; for the package's own fault tests, behind an SPI.
    @_spi(Testing) public var unconfirmedSeqs: ClosedRange<Int>?
}
