import CoordinatorLensPage

extension SessionSummary {
    /// The summary of a session the inspector holds; with `context` (a baseline, a history), how many of its retained
    /// coordinators are not known leaks.
    init(_ live: LiveSnapshot, context: LeakContext? = nil) {
        let snapshot = live.snapshot
        let state = live.recorded ? "recorded" : snapshot.ended ? "ended" : live.connected ? "live" : "disconnected"
        self.init(snapshot, state: state, version: live.version, events: live.events)
        judgement = live.judgement
        if let context {
            unknownLeaks = snapshot.leakGroups.reduce(0) { sum, group in
                context.standing(of: group.fingerprint.description, count: group.ids.count).standing == "known" ? sum : sum + group.ids.count
            }
        }
    }
}
