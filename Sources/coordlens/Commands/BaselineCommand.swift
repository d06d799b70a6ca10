import ArgumentParser
import CoordinatorLens
import Foundation

/// `coordlens baseline FILE... -o coordlens-baseline.json`: the leaks of some runs, to accept for now.
struct BaselineCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "baseline",
        abstract: "Write the leak fingerprints of recordings, with the most coordinators one run retained with each, as a baseline for check --baseline.",
        discussion: CommandHelp.discussion(
            """
            Commit the file: check --baseline then lists these leaks as known and fails only on new fingerprints or \
            runs with more of one than the baseline allows. Directories are searched for *.ndjson, as with --summary.
            """,
            examples: CommandHelp.baselineExamples, exitCodes: CommandHelp.baselineExitCodes)
    )

    @Argument(help: "Recordings in wire format v1 (NDJSON), or directories of them.")
    var files: [String]

    @Option(name: .shortAndLong, help: "The baseline file to write; standard output when not given or -.")
    var output: String?

    @Option(help: "Seconds a done coordinator may take to deinit before it counts as retained.")
    var grace: Double = VerdictRules.defaultGrace

    @OptionGroup var counts: AliveLimitOptions

    @OptionGroup var input: InputLimitOptions

    func run() throws {
        guard !files.contains("-") else { throw UsageFailure(message: "baseline reads files and directories, not standard input") }
        let (summary, unusable) = SummaryInput.summarise(
            try SummaryInput.files(files), grace: grace, limits: input.limits, cut: .end, aliveLimits: try counts.aliveLimits())
        if !unusable.isEmpty {
            for problem in unusable { FileHandle.standardError.write(Data("\(problem.description)\n".utf8)) }
            throw ExitCode(2)
        }
        if let stopped = LeakSummaryReport.stoppedWithoutEnd(summary) { FileHandle.standardError.write(Data("\(stopped)\n".utf8)) }
        let baseline = LeakBaseline(summary: summary)
        let text = BaselineFile.text(for: baseline)
        guard let output, output != "-" else {
            print(text, terminator: "")
            return
        }
        try OutputFile.write(Array(text.utf8), to: output)
        let fingerprints = baseline.counts.count == 1 ? "1 leak fingerprint" : "\(baseline.counts.count) leak fingerprints"
        let recordings = summary.recordings == 1 ? "1 recording" : "\(summary.recordings) recordings"
        FileHandle.standardError.write(Data("wrote \(output): \(fingerprints) from \(recordings)\n".utf8))
    }
}
