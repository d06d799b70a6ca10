import ArgumentParser
import CoordinatorLens

/// Which session, at which point, judged with which grace: shared by `render` and `check`.
struct SnapshotOptions: ParsableArguments {
    @OptionGroup var position: CutOptions

    @Option(name: .customLong("session"), help: "The run id of the session to use when the input holds several.")
    var session: String?

    @Option(help: "Seconds a done coordinator may take to deinit before it counts as retained.")
    var grace: Double = VerdictRules.defaultGrace

    @Option(
        name: .customLong("max-alive"),
        help: ArgumentHelp(
            "At most N coordinators of TYPE alive at once; older ones beyond N are retained (over-limit). Repeatable; overrides the app's own ExpectedCount for TYPE.",
            valueName: "TYPE=N")
    )
    var maxAlive: [String] = []

    @Option(
        name: .customLong("max-alive-per-parent"),
        help: ArgumentHelp("At most N coordinators of TYPE alive at once under any one parent. Repeatable.", valueName: "TYPE=N")
    )
    var maxAlivePerParent: [String] = []

    @OptionGroup var input: InputLimitOptions

    func validate() throws {
        guard grace >= 0, grace.isFinite else { throw ValidationError("--grace must be a non-negative number of seconds") }
        _ = try aliveLimits()
    }

    /// `--max-alive` and `--max-alive-per-parent`, in that order.
    func aliveLimits() throws -> [AliveLimit] {
        func parse(_ arguments: [String], _ scope: AliveLimit.Scope, _ option: String) throws -> [AliveLimit] {
            try arguments.map { argument in
                guard let limit = AliveLimit(argument: argument, scope: scope) else {
                    throw ValidationError("\(option) takes TYPE=N with N a whole number of 0 or more, not \"\(argument)\"")
                }
                return limit
            }
        }
        return try parse(maxAlive, .session, "--max-alive") + parse(maxAlivePerParent, .parent, "--max-alive-per-parent")
    }

    /// The limits the input is read with.
    var limits: InputLimits { input.limits }

    var cut: Cut { position.cut }

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
        let limits = try aliveLimits()
        do {
            return try session.log.snapshot(until: cut, grace: grace, limits: limits)
        } catch {
            throw UsageFailure(message: "\(session.source): \(error.message)")
        }
    }
}
