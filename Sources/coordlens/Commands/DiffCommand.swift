import ArgumentParser
import CoordinatorLens
import CoordinatorLensPage
import CoordinatorLensRendering
import Foundation

/// `coordlens diff`: what changed in the coordinator tree between two runs of a flow. `diff --growth` is kept as the
/// old name of `coordlens growth`.
struct DiffCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Compare the coordinator trees of two runs; exit 1 when B has a leak or a pile-up A does not, 2 on bad usage or input.",
        discussion: CommandHelp.discussion(
            """
            Coordinators are matched by their path of types from the root and their ordinal among same-type siblings \
            (AppCoordinator/MainTabCoordinator/FeedCoordinator[0]), as ids differ between runs. A detached coordinator \
            is matched under the parent it was removed from. Markers: + added (only in B), - gone (only in A), \
            ! newly retained, ✓ leak fixed, ~ verdict or screen changed, = unchanged.

            A leak's fingerprint is the retained coordinator's type path (without ordinals) and its reason kind \
            (still-child, detached, outlived-parent); fingerprints are counted, so B leaking one twice where A leaked \
            it once is one new leak. A path (types from the root) on which B has more coordinators in use at its end than \
            A had is a pile-up: coordinators created on every visit and never let go, which have no screen to mark them \
            done.

            `coordlens diff --growth RUN.ndjson --mark LABEL` is the old name of `coordlens growth RUN.ndjson --mark \
            LABEL`, which lists the types whose live count grows at every mark.
            """,
            examples: CommandHelp.diffExamples, exitCodes: CommandHelp.diffExitCodes)
    )

    enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
        case text, json, svg, png, pdf, dot, html
    }

    @Argument(help: "A and B: recordings (NDJSON) or snapshots written by `render --format json`; - reads standard input.")
    var files: [String] = []

    @Option(name: .shortAndLong, help: "The output file; standard output when not given or -.")
    var output: String?

    @Option(
        help: "text, json, svg, png, pdf, dot or html (a one-file report: picture and leak lists); taken from the output's extension when not given, else text."
    )
    var format: OutputFormat?

    /// The point both trees are taken at.
    @OptionGroup var point: CutOptions

    @Option(
        name: .customLong("session"),
        help: "The run id to use when a file holds several sessions; give it twice: first for A, second for B."
    )
    var sessions: [String] = []

    @Option(help: "Seconds a done coordinator may take to deinit before it counts as retained (recordings only).")
    var grace: Double = VerdictRules.defaultGrace

    @Option(help: ArgumentHelp("The old name of `coordlens growth FILE`.", visibility: .hidden))
    var growth: String?

    @Option(help: ArgumentHelp("With --growth: the label of the mark that ends each iteration.", visibility: .hidden))
    var mark: String?

    @Flag(help: "In a picture, draw every coordinator; by default a diff of more than 300 draws each unchanged subtree as one node.")
    var all = false

    @Flag(name: .customLong("no-group"), help: "In a picture, give every unchanged subtree a node of its own rather than grouping same-type siblings.")
    var noGroup = false

    @OptionGroup var counts: AliveLimitOptions

    @OptionGroup var input: InputLimitOptions

    func validate() throws {
        guard grace >= 0, grace.isFinite else { throw ValidationError("--grace must be a non-negative number of seconds") }
        if growth != nil {
            guard files.isEmpty else { throw ValidationError("--growth reads one run: give no other file") }
            guard mark != nil else { throw ValidationError("--growth needs --mark LABEL, the mark after each iteration") }
            guard cut == .end else { throw ValidationError("--growth reads the whole run: --at-seq, --at-time and --at-mark do not apply") }
            guard sessions.count <= 1 else { throw ValidationError("--growth reads one run: give --session at most once") }
            if let format, format != .text, format != .json {
                throw ValidationError("--growth writes text or json, not \(format.rawValue)")
            }
        } else {
            guard files.count == 2 else {
                throw ValidationError("give two inputs, A and B (or --growth FILE --mark LABEL); got \(files.count)")
            }
            guard mark == nil else { throw ValidationError("--mark goes with --growth; to diff at a mark use --at-mark") }
            guard sessions.count <= 2 else { throw ValidationError("give --session at most twice: first for A, second for B") }
            guard files != ["-", "-"] else { throw ValidationError("only one of A and B can be standard input") }
        }
    }

    private var cut: Cut { point.cut }

    func run() throws {
        if let growth, let mark {
            var command = GrowthCommand()
            command.file = growth
            command.mark = mark
            command.session = sessions.first
            command.output = output
            command.format = format.flatMap { GrowthCommand.OutputFormat(rawValue: $0.rawValue) }
            command.input = input
            try command.run()
        } else {
            try runDiff()
        }
    }

    private func runDiff() throws {
        let format = try outputFormat()
        let a = try snapshot(side: "A", path: files[0], session: sessions.first)
        let b = try snapshot(side: "B", path: files[1], session: sessions.dropFirst().first)
        let diff = TreeDiff(a.snapshot, b.snapshot)
        // Coordinators without a screen of their own are never dismissed, so a pile-up of them is no leak to the
        // verdicts: B having more in use on a path than A had is what shows it.
        let pileUps = PileUp.find(in: PathCensus(b.snapshot), against: PathCensus(a.snapshot))
        let pileUpText =
            pileUps.isEmpty
            ? ""
            : "\n\npiled up in B (more in use on a path than in A):\n"
                + pileUps.map { "  " + TextSanitizer.visible($0.text(reference: "A")) }.joined(separator: "\n")
        let bytes: [UInt8]
        switch format {
        case .text:
            bytes = Array((TreeDiffReport.text(for: diff, sourceA: a.source, sourceB: b.source) + pileUpText + "\n").utf8)
        case .html:
            do {
                bytes = try DiffReport.html(diff, sourceA: a.source, sourceB: b.source, all: all, grouping: !noGroup)
            } catch {
                throw OutputFailure(message: "\(error)")
            }
        case .json, .svg, .png, .pdf, .dot:
            do {
                bytes = try DiffRenderer.render(
                    diff, format: RenderFormat(rawValue: format.rawValue)!, sourceA: a.source, sourceB: b.source,
                    all: all, grouping: !noGroup
                )
            } catch {
                throw OutputFailure(message: "\(error)")
            }
        }
        try CommandOutput.write(bytes, to: output)
        if format != .text, !pileUpText.isEmpty { FileHandle.standardError.write(Data((pileUpText.dropFirst(2) + "\n").utf8)) }
        if diff.hasNewLeaks || !pileUps.isEmpty { throw ExitCode(1) }
    }

    /// `--format`, else the output's extension (`.txt` is text), else text.
    private func outputFormat() throws -> OutputFormat {
        if let format { return format }
        guard let output, output != "-" else { return .text }
        if output.lowercased().hasSuffix(".txt") { return .text }
        if output.lowercased().hasSuffix(".html") || output.lowercased().hasSuffix(".htm") { return .html }
        guard let format = RenderFormat(path: output) else {
            throw UsageFailure(message: "cannot tell the format of \(output): give --format text|json|svg|png|pdf|dot|html")
        }
        return OutputFormat(rawValue: format.rawValue)!
    }

    private func snapshot(side: String, path: String, session: String?) throws -> (snapshot: Snapshot, source: String) {
        switch try DiffInput.read(path, limits: input.limits) {
        case .snapshot(let snapshot, let source):
            guard cut == .end else {
                throw UsageFailure(
                    message: "\(side) (\(source)) is a snapshot, already taken at \(Seconds(snapshot.evaluatedAt)): "
                        + "--at-seq, --at-time and --at-mark apply to recordings only")
            }
            if let session, session != snapshot.run {
                throw UsageFailure(message: "\(side) (\(source)) is a snapshot of run \(snapshot.run), not \(session)")
            }
            return (snapshot, source)
        case .recording(let sessions):
            let picked = try SessionChoice.pick(
                from: sessions, name: "\(side) (\(path))", run: session, hint: "--session, given twice: first for A, second for B"
            )
            let snapshot: Snapshot
            let limits = try counts.aliveLimits()
            do {
                snapshot = try picked.log.snapshot(until: cut, grace: grace, limits: limits)
            } catch {
                throw UsageFailure(message: "\(side) (\(picked.source)): \(error.message)")
            }
            WarningPrinter.print(snapshot.warnings + StoppedWithoutEnd.note(snapshot, atEnd: cut == .end), source: picked.source)
            return (snapshot, picked.source)
        }
    }
}
