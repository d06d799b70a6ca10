/// What `coordlens check` decided: every session's snapshot, its leaks, and the coordinators it could not judge.
public struct CheckResult: Sendable {
    /// The grace period every verdict used, in seconds.
    public var grace: Double
    /// The sessions checked, in input order.
    public var sessions: [SessionCheck]
    /// What a baseline or a history says about the leaks: every output marks them, and accepted ones do not fail.
    package var notes = LeakNotes()

    /// Collects the sessions' checks under one grace period.
    public init(grace: Double, sessions: [SessionCheck]) {
        self.grace = grace
        self.sessions = sessions
    }

    /// Retained coordinators in all sessions: the leaks.
    public var retained: Int { sessions.reduce(0) { $0 + ($1.snapshot.counts[.retained] ?? 0) } }
    /// Coordinators no session could decide, because it ended within their grace period.
    public var undecided: Int { sessions.reduce(0) { $0 + $1.undecided.count } }

    /// Retained coordinators that no note accepts (with a baseline: the new ones): the leaks that fail the run.
    package var failingRetained: Int {
        guard !notes.isEmpty else { return retained }
        return sessions.enumerated().reduce(0) { total, session in
            total + session.element.snapshot.retained.filter { notes.note(session: session.offset, id: $0.id)?.accepted != true }.count
        }
    }

    /// Whether CI should fail: a leak no baseline accepts, or (unless allowed) a coordinator the run ended too early to
    /// judge.
    public func fails(allowingUndecided: Bool) -> Bool {
        failingRetained > 0 || (!allowingUndecided && undecided > 0)
    }
}

/// One session as `check` judged it.
public struct SessionCheck: Sendable {
    /// The input it came from, a path or `<stdin>`, for warnings.
    public var source: String
    /// The session judged at the point asked for.
    public var snapshot: Snapshot
    /// Pending coordinators of a snapshot taken at the end of the recording: the run stopped before their grace period
    /// was over, so nobody can tell whether they would have been freed. Empty for a snapshot taken at a cut.
    public var undecided: [UndecidedCoordinator]
    /// For a recording that stops without an `end` (the app died, or still runs), the one sentence every output gives:
    /// it is judged at its last event, and the retainer search `end()` runs never ran. Nil when it ended, and at a cut.
    public var stoppedWithoutEnd: String?

    /// Judges `snapshot`; `atEnd` says it was taken at the end of its recording, where pending means undecided.
    public init(source: String, snapshot: Snapshot, atEnd: Bool) {
        self.source = source
        self.snapshot = snapshot
        guard atEnd else {
            undecided = []
            return
        }
        if !snapshot.ended {
            // Said because such a run otherwise reads like a finished one, and a missing held-by line like "none found".
            let searched = snapshot.heldBy.isEmpty ? "" : " at its end, only those the app asked for earlier"
            stoppedWithoutEnd =
                "the app stopped without end() (last event at \(Seconds(snapshot.evaluatedAt))): no retainer search ran\(searched)"
        }
        // By position: a node is copied only when it is undecided, not each of them to test its verdict.
        undecided = snapshot.nodes.indices.compactMap { index in
            guard snapshot.nodes[index].verdict == .pending, let done = snapshot.nodes[index].doneAt else { return nil }
            let node = snapshot.nodes[index]
            return UndecidedCoordinator(node: node, reason: Self.reason(for: node, doneAt: done, in: snapshot))
        }
    }

    private static func reason(for node: SnapshotNode, doneAt done: Double, in snapshot: Snapshot) -> String {
        let after = Seconds(snapshot.evaluatedAt - done)
        let grace = Seconds(snapshot.grace)
        if snapshot.ended {
            return "the run ended \(after) after \(node.type)#\(node.id) was done, within the grace period of \(grace); "
                + "keep the app alive for the grace period or call end() with TraceOptions.grace of at least \(grace)"
        }
        return "the recording stops \(after) after \(node.type)#\(node.id) was done, within the grace period of \(grace), "
            + "with no end (the app was killed or is still running); keep the app alive for the grace period or call end()"
    }
}

/// A coordinator that was done but not yet freed when its run stopped.
public struct UndecidedCoordinator: Hashable, Sendable {
    /// The coordinator, with verdict `pending`.
    public var node: SnapshotNode
    /// Why it could not be judged and what to change, in one line.
    public var reason: String
}
