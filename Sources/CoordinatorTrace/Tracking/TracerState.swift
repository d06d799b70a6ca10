@_spi(Locking) import CoordinatorWire
/// Everything a tracer's lock guards: the running session, if any.
struct TracerState {
    var session: SessionState?
    /// The writer of the current or last session, for `Tracer.counts`.
    var lastWriter: SessionWriter?
}

/// What a session's deallocation probes report back to (used on Apple platforms only).
typealias ProbeRouteSource = LockedBox<TracerState>
