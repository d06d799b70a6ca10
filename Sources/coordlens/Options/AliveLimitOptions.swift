import ArgumentParser
import CoordinatorLens

/// `--max-alive`, `--max-alive-per-parent` and `--reusable`: the counts every command that judges takes, so that
/// `check`, `render`, `view`, `listen`, `diff` and `baseline` judge one recording alike.
struct AliveLimitOptions: ParsableArguments {
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

    @Option(
        name: .customLong("reusable"),
        help: ArgumentHelp(
            "TYPE is kept for reuse by design: up to N (default 1) done ones their parent still holds are kept, not leaks; beyond N the oldest are retained. Repeatable; overrides the app's own ReusableType.",
            valueName: "TYPE[=N]")
    )
    var reusable: [String] = []

    func validate() throws {
        _ = try aliveLimits()
    }

    /// `--max-alive`, `--max-alive-per-parent` and `--reusable`, in that order.
    func aliveLimits() throws -> [AliveLimit] {
        func parse(_ arguments: [String], _ scope: AliveLimit.Scope, _ option: String) throws -> [AliveLimit] {
            try arguments.map { argument in
                guard let limit = AliveLimit(argument: argument, scope: scope) else {
                    throw ValidationError("\(option) takes TYPE=N with N a whole number of 0 or more, not \"\(argument)\"")
                }
                return limit
            }
        }
        let reuse = try reusable.map { argument in
            guard argument.contains("=") else {
                guard !argument.isEmpty else { throw ValidationError("--reusable takes TYPE or TYPE=N, not an empty name") }
                return AliveLimit(type: argument, maximum: 1, scope: .reuse)
            }
            guard let limit = AliveLimit(argument: argument, scope: .reuse) else {
                throw ValidationError("--reusable takes TYPE or TYPE=N with N a whole number of 0 or more, not \"\(argument)\"")
            }
            return limit
        }
        return try parse(maxAlive, .session, "--max-alive") + parse(maxAlivePerParent, .parent, "--max-alive-per-parent") + reuse
    }
}
