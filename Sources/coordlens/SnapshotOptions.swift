import ArgumentParser
import CoordinatorLens

/// Which session, at which point, judged with which grace: shared by `render` and `check`.
struct SnapshotOptions: ParsableArguments {
    @Option(name: .customLong("at-seq"), help: "Take the tree right after the event with this seq.")
    var atSeq: Int?

    @Option(name: .customLong("at-time"), help: "Take the tree at this many seconds into the session.")
    var atTime: Double?

    @Option(name: .customLong("at-mark"), help: "Take the tree right after the first mark with this label.")
    var atMark: String?

    @Option(name: .customLong("session"), help: "The run id of the session to use when the input holds several.")
    var session: String?

    @Option(help: "Seconds a done coordinator may take to deinit before it counts as retained.")
    var grace: Double = VerdictRules.defaultGrace

    func validate() throws {
        if [atSeq != nil, atTime != nil, atMark != nil].filter({ $0 }).count > 1 {
            throw ValidationError("give at most one of --at-seq, --at-time and --at-mark")
        }
        guard grace >= 0, grace.isFinite else { throw ValidationError("--grace must be a non-negative number of seconds") }
    }

    var cut: Cut {
        if let atSeq { return .seq(atSeq) }
        if let atTime { return .time(atTime) }
        if let atMark { return .mark(atMark) }
        return .end
    }

    /// The sessions `--session` picks (all of them when it is not given).
    func select(_ sessions: [InputSession]) throws -> [InputSession] {
        guard let session else { return sessions }
        let picked = sessions.filter { $0.log.header.run == session }
        guard !picked.isEmpty else {
            throw UsageFailure(message: "no session \(session); the input holds: \(sessions.map(\.log.header.run).joined(separator: ", "))")
        }
        return picked
    }

    func snapshot(of session: InputSession) throws -> Snapshot {
        do {
            return try session.log.snapshot(until: cut, grace: grace)
        } catch {
            throw UsageFailure(message: "\(session.source): \(error.message)")
        }
    }
}
