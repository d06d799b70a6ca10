/// A retained coordinator's leak trace read as LeakCanary reads one: whether each object on it is leaking, and the
/// suspect references, from the last object that is not leaking to the first that is, which is where the bug is.
public struct LeakTrace: Hashable, Sendable {
    /// Whether an object on the trace is leaking.
    public enum State: String, Hashable, Sendable, Codable {
        /// Alive as expected: a living coordinator or its screen, or a root (a static, a global, a task, a timer).
        case notLeaking = "no"
        /// Done and kept: a retained coordinator.
        case leaking = "yes"
        /// Neither is known: an object the session does not judge.
        case unknown
    }

    /// The holders' states, one per step of the `HeldBy`, then the coordinator's own (leaking).
    public var states: [State]
    /// The steps whose references are suspect: the bug is on one of them.
    public var suspects: Range<Int>
    /// The retained coordinator the trace reaches before this one: it is held only through that leak, and fixing
    /// that one frees this one too; nil when the suspects lead to this one itself.
    public var through: CoordinatorID?

    /// The trace of `held`, a search's result for retained coordinator `id`, with the holders' verdicts from
    /// `snapshot`; nil when the search found no path.
    init?(_ held: HeldBy, of id: CoordinatorID, in snapshot: Snapshot) {
        guard held.outcome == .live || held.outcome == .cycle, !held.steps.isEmpty else { return nil }
        states = held.steps.enumerated().map { index, step in
            if let holder = step.holderID, let position = snapshot.position(of: holder) {
                switch snapshot.nodes[position].verdict {
                case .retained: return .leaking
                case .alive, .pending: return .notLeaking
                case .released, .late: return .unknown
                }
            }
            // A found path starts at what the search starts from, so its first holder is a root when it is no
            // coordinator: the search reports a path only from a living coordinator, its screen, a global or a root.
            return index == 0 && held.outcome == .live ? .notLeaking : .unknown
        }
        states.append(.leaking)
        guard let lastNotLeaking = states.lastIndex(of: .notLeaking) else {
            // A cycle, or a path that starts at another leak: nothing on it is alive, so the reference that closes it
            // onto this coordinator is the suspect, and a leak it starts at is what holds this one.
            suspects = (held.steps.count - 1)..<held.steps.count
            let first = held.steps[0].holderID
            through = held.outcome == .live && first != id && states[0] == .leaking ? first : nil
            return
        }
        let firstLeaking = states[(lastNotLeaking + 1)...].firstIndex(of: .leaking)!
        suspects = lastNotLeaking..<firstLeaking
        through = firstLeaking < held.steps.count ? held.steps[firstLeaking].holderID.flatMap { $0 == id ? nil : $0 } : nil
    }
}

extension Snapshot {
    /// The leak trace of retained coordinator `id`, from `heldBy` (the snapshot's own by default); nil when the
    /// search found no path to it.
    package func leakTrace(of id: CoordinatorID, heldBy: HeldBy? = nil) -> LeakTrace? {
        (heldBy ?? self.heldBy[id]).flatMap { LeakTrace($0, of: id, in: self) }
    }
}
