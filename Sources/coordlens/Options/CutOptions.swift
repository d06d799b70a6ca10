import ArgumentParser
import CoordinatorLens

/// `--at-seq`, `--at-time`, `--at-mark`: the point in a session a command takes its tree at, by default the end.
struct CutOptions: ParsableArguments {
    @Option(name: .customLong("at-seq"), help: "Take the tree right after the event with this seq.")
    var atSeq: Int?

    @Option(name: .customLong("at-time"), help: "Take the tree at this many seconds into the session.")
    var atTime: Double?

    @Option(name: .customLong("at-mark"), help: "Take the tree right after the first mark with this label.")
    var atMark: String?

    func validate() throws {
        if [atSeq != nil, atTime != nil, atMark != nil].filter({ $0 }).count > 1 {
            throw ValidationError("give at most one of --at-seq, --at-time and --at-mark")
        }
        // inf, nan and 1e400 would reach the JSON output as tokens no JSON reader accepts.
        if let atTime, !atTime.isFinite {
            throw ValidationError("--at-time must be a finite number of seconds, not \(atTime)")
        }
    }

    var cut: Cut {
        if let atSeq { return .seq(atSeq) }
        if let atTime { return .time(atTime) }
        if let atMark { return .mark(atMark) }
        return .end
    }
}
