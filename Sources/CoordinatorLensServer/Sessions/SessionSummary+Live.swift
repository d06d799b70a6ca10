import CoordinatorLensPage

extension SessionSummary {
    /// The summary of a session the inspector holds.
    init(_ live: LiveSnapshot) {
        let snapshot = live.snapshot
        let state = live.recorded ? "recorded" : snapshot.ended ? "ended" : live.connected ? "live" : "disconnected"
        self.init(snapshot, state: state, version: live.version, events: live.events)
    }
}
