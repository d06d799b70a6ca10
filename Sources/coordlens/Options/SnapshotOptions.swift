import ArgumentParser
import CoordinatorLens

/// Which session, at which point, judged with which grace: shared by `render` and `check`.
struct SnapshotOptions: ParsableArguments {
    @OptionGroup var position: CutOptions

    @Option(name: .customLong("session"), help: "The run id of the session to use when the input holds several.")
    var session: String?

    @Option(help: "Seconds a done coordinator may take to deinit before it counts as retained.")
    var grace: Double = VerdictRules.defaultGrace

    @OptionGroup var counts: AliveLimitOptions

    @OptionGroup var input: InputLimitOptions

    func validate() throws {
        guard grace >= 0, grace.isFinite else { throw ValidationError("--grace must be a non-negative number of seconds") }
    }

    /// `--max-alive`, `--max-alive-per-parent` and `--reusable`, in that order.
    func aliveLimits() throws -> [AliveLimit] { try counts.aliveLimits() }

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
