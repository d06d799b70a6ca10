import ArgumentParser
import CoordinatorLens

/// `coordlens check`: the verdicts, for people and for CI (exit 1 when anything is retained or undecided).
struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Report retained coordinators; exit 0 when none, 1 when some (or when the run ended too early to judge), 2 on bad usage or input."
    )

    enum ReportFormat: String, ExpressibleByArgument, CaseIterable {
        case text, json, gcc, github, sarif, junit
    }

    @Argument(help: "Recordings in wire format v1 (NDJSON); - reads standard input.")
    var files: [String]

    @Option(help: "text, json, gcc (file:line: error: …), github (Actions annotations), sarif (SARIF 2.1.0) or junit (JUnit XML).")
    var format: ReportFormat = .text

    @Flag(help: "Exit 0 although the run ended while some finished coordinators were still within their grace period.")
    var allowUndecided = false

    @OptionGroup var point: SnapshotOptions

    @OptionGroup var source: SourceRootOption

    func run() throws {
        // Judged at the end, a session needs only its tree: read that way, memory follows coordinators, not events.
        let retention: Recording.Retention = point.cut == .end ? .treeAtEnd : .everyLine
        let sessions = try point.select(try RecordingInput.read(files, limits: point.limits, keeping: retention))
        let checks = try sessions.map { SessionCheck(source: $0.source, snapshot: try point.snapshot(of: $0), atEnd: point.cut == .end) }
        let result = CheckResult(grace: point.grace, sessions: checks)
        let paths = source.paths
        switch format {
        case .text: print(LeakReport.text(for: result, allowingUndecided: allowUndecided, paths: paths))
        case .json: print(CheckJSONReport.json(for: result, paths: paths))
        case .gcc: print(GCCReport.text(for: result, allowingUndecided: allowUndecided, paths: paths), terminator: "")
        case .github: print(GitHubAnnotationsReport.text(for: result, allowingUndecided: allowUndecided, paths: paths))
        case .sarif: print(SARIFReport.json(for: result, allowingUndecided: allowUndecided, paths: paths))
        case .junit: print(JUnitReport.xml(for: result, allowingUndecided: allowUndecided, paths: paths), terminator: "")
        }
        if result.fails(allowingUndecided: allowUndecided) { throw ExitCode(1) }
    }
}
