import ArgumentParser
import CoordinatorLens
import CoordinatorLensRendering

/// `coordlens growth`: in one run that repeats a flow with a mark after each iteration, the coordinator types whose
/// live count grows at every mark.
struct GrowthCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "growth",
        abstract: "List the coordinator types whose live count grows at every mark; exit 1 when some do, 2 on bad usage or input.",
        discussion: CommandHelp.discussion(
            """
            Run a flow several times in one session with CoordinatorTrace.mark(LABEL) after each pass. A type that \
            grows from each mark to the next piles up as the flow repeats, even before any single coordinator is \
            judged retained. `coordlens diff --growth FILE --mark LABEL` is the same command under its old name.
            """,
            examples: CommandHelp.growthExamples, exitCodes: CommandHelp.growthExitCodes)
    )

    enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
        case text, json
    }

    @Argument(help: "A recording of one run (NDJSON); - reads standard input.")
    var file: String

    @Option(help: "The label of the mark that ends each iteration.")
    var mark: String

    @Option(name: .customLong("session"), help: "The run id to use when the file holds several sessions.")
    var session: String?

    @Option(name: .shortAndLong, help: "The output file; standard output when not given or -.")
    var output: String?

    @Option(help: "text or json; json when the output ends in .json, else text.")
    var format: OutputFormat?

    @OptionGroup var input: InputLimitOptions

    func run() throws {
        guard case .recording(let sessions) = try DiffInput.read(file, limits: input.limits) else {
            throw UsageFailure(message: "\(file) is a snapshot: growth needs the recording of the run, with its marks")
        }
        let chosen = try SessionChoice.pick(from: sessions, name: file, run: session)
        let report: GrowthReport
        do {
            report = try GrowthReport(chosen.log, label: mark)
        } catch {
            throw UsageFailure(message: "\(chosen.source): \(error.message)")
        }
        let json = format == .json || (format == nil && output?.lowercased().hasSuffix(".json") == true)
        do {
            try CommandOutput.write(json ? try ReportJSON.encode(report) : Array((report.text + "\n").utf8), to: output)
        } catch let failure as RenderError {
            throw OutputFailure(message: "\(failure)")
        }
        if !report.growing.isEmpty { throw ExitCode(1) }
    }
}
