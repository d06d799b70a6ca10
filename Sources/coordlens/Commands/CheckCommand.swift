import ArgumentParser
import CoordinatorLens
import CoordinatorLensHistory
import Foundation

/// `coordlens check`: the verdicts, for people and for CI (exit 1 when anything is retained or undecided).
struct CheckCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Report retained coordinators; exit 0 when none, 1 when some (or when the run ended too early to judge), 2 on bad usage or input.",
        discussion: CommandHelp.check
    )

    enum ReportFormat: String, ExpressibleByArgument, CaseIterable {
        case text, json, gcc, github, sarif, junit
    }

    @Argument(help: "Recordings in wire format v1 (NDJSON); - reads standard input. With --summary, files or directories.")
    var files: [String]

    @Option(help: "text, json, gcc (file:line: error: …), github (Actions annotations), sarif (SARIF 2.1.0) or junit (JUnit XML).")
    var format: ReportFormat = .text

    @Flag(help: "Exit 0 although the run ended while some finished coordinators were still within their grace period.")
    var allowUndecided = false

    enum NotesShown: String, ExpressibleByArgument, CaseIterable {
        case few, all
    }

    @Option(help: "few (the first 5 notes of each run, then one line for the rest) or all, in the text report.")
    var notes: NotesShown = .few

    @Flag(
        help:
            "Summarise many recordings (directories are searched for *.ndjson): leaks grouped by fingerprint, ranked by the number of recordings they appear in; text, json, gcc or github."
    )
    var summary = false

    @OptionGroup var point: SnapshotOptions

    @OptionGroup var source: SourceRootOption

    @OptionGroup var baseline: BaselineOption

    @OptionGroup var history: CheckHistoryOptions

    func run() async throws {
        if summary { return try runSummary() }
        // A folder of recordings is what --summary reads: say so rather than only that a folder is not a file.
        for file in files where file != "-" {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: file, isDirectory: &isDirectory), isDirectory.boolValue {
                throw UsageFailure(message: "\(file) is a directory; check --summary \(file) summarises the recordings in it")
            }
        }
        // Judged at the end, a session needs only its tree: read that way, memory follows coordinators, not events.
        let retention: Recording.Retention = point.cut == .end ? .treeAtEnd : .everyLine
        let progress = TerminalProgress("reading \(files.count == 1 ? files[0] : "\(files.count) files")")
        defer { progress.finish() }
        let sessions = try point.select(try RecordingInput.read(files, limits: point.limits, keeping: retention))
        progress.stage("judging \(sessions.count) session\(sessions.count == 1 ? "" : "s")")
        for warning in RepeatedRuns.warnings(for: sessions) { FileHandle.standardError.write(Data("\(warning)\n".utf8)) }
        let paths = source.paths
        // Reasons and sites in every format as --source-root prints them.
        let checks = try sessions.map {
            SessionCheck(source: $0.source, snapshot: paths.applied(to: try point.snapshot(of: $0)), atEnd: point.cut == .end)
        }
        var result = CheckResult(grace: point.grace, sessions: checks)
        // Known and new (baseline), new and seen before (history): notes every format shows; known leaks do not fail.
        let accepted = try baseline.read()
        let comparison = accepted.map { BaselineComparison(result, baseline: $0) }
        if let comparison { result.notes.merge(comparison.notes) }
        progress.finish()
        let marks = try await history.record(checks)
        if let marks { result.notes.merge(marks.notes) }
        switch format {
        case .text:
            var blocks = [LeakReport.text(for: result, allowingUndecided: allowUndecided, paths: paths, allNotes: notes == .all)]
            if let comparison, let accepted, let path = baseline.path {
                blocks.append(comparison.text(baseline: path, sessions: checks, entries: accepted))
            }
            if let marks { blocks.append(marks.text) }
            print(blocks.joined(separator: "\n\n"))
        case .json:
            var output = StreamedOutput()
            CheckJSONReport.write(for: result, paths: paths) { output.append($0) }
            output.append("\n")
            output.flush()
        case .gcc: print(GCCReport.text(for: result, allowingUndecided: allowUndecided, paths: paths), terminator: "")
        case .github: print(GitHubAnnotationsReport.text(for: result, allowingUndecided: allowUndecided, paths: paths))
        case .sarif: print(SARIFReport.json(for: result, allowingUndecided: allowUndecided, paths: paths))
        case .junit: print(JUnitReport.xml(for: result, allowingUndecided: allowUndecided, paths: paths), terminator: "")
        }
        if result.fails(allowingUndecided: allowUndecided) || comparison?.failsOnPileUps == true { throw ExitCode(1) }
    }

    /// `--summary`: every recording judged on its own core, leaks grouped across them; exit 2 when a recording could
    /// not be used (the rest are still counted), else as without it.
    private func runSummary() throws {
        guard history.location == nil else { throw UsageFailure(message: "--summary takes no --history: store the runs with coordlens history add") }
        guard point.session == nil else { throw UsageFailure(message: "--summary reads every session; it takes no --session") }
        guard !files.contains("-") else { throw UsageFailure(message: "--summary reads files and directories, not standard input") }
        guard format != .sarif, format != .junit else {
            throw UsageFailure(
                message:
                    "--summary prints text, json, gcc or github; \(format.rawValue) describes single runs: run check --format \(format.rawValue) on the recordings"
            )
        }
        let (summary, unusable) = SummaryInput.summarise(
            try SummaryInput.files(files), grace: point.grace, limits: point.limits, cut: point.cut, aliveLimits: try point.aliveLimits())
        let paths = source.paths
        let accepted = try baseline.read()
        switch format {
        case .text: print(LeakSummaryReport.text(for: summary, unusable: unusable, paths: paths, baseline: accepted))
        case .json: print(LeakSummaryReport.json(for: summary, unusable: unusable, paths: paths, baseline: accepted))
        case .gcc: print(LeakSummaryReport.gcc(for: summary, unusable: unusable, paths: paths, baseline: accepted), terminator: "")
        case .github: print(LeakSummaryReport.github(for: summary, unusable: unusable, paths: paths, baseline: accepted))
        case .sarif, .junit: preconditionFailure("refused above")
        }
        for problem in unusable { FileHandle.standardError.write(Data("\(problem.description)\n".utf8)) }
        if !unusable.isEmpty { throw ExitCode(2) }
        if summary.fails(allowingUndecided: allowUndecided, baseline: accepted) { throw ExitCode(1) }
    }
}
