import ArgumentParser
import CoordinatorLens
import CoordinatorLensPage
import CoordinatorLensRendering
import Foundation

/// `coordlens render`: one session's tree as a picture, DOT or JSON snapshot.
struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Render a session's coordinator tree to svg, png, pdf, dot, json, or a one-file html report.",
        discussion: CommandHelp.render
    )

    @Argument(help: "Recordings in wire format v1 (NDJSON); - reads standard input.")
    var files: [String]

    @Option(name: .shortAndLong, help: "The output file; - writes to standard output (then --format is needed).")
    var output: String

    @Option(help: "svg, png, pdf, dot, json or html (the inspector page as one self-contained file); taken from the output's extension when not given.")
    var format: RenderOutput?

    @Flag(name: .customLong("show-released"), help: "Also draw released and late coordinators, greyed and dashed.")
    var showReleased = false

    @Flag(help: "Draw every coordinator; by default a tree of more than 300 summarises what has nothing retained or pending below.")
    var all = false

    @Flag(name: .customLong("leaks-only"), help: "Draw only retained coordinators, what hangs below them and the path to each.")
    var leaksOnly = false

    @Option(
        help: ArgumentHelp(
            "Draw only the coordinator with this id, or every one of this type, with its subtree and its path from the root.", valueName: "ID|TYPE"))
    var focus: String?

    @Option(help: "Draw coordinators down to this depth (roots are 0); each deeper subtree becomes one summary with its counts.")
    var depth: Int?

    @Flag(name: .customLong("no-group"), help: "In a summarised tree, give every summarised subtree a node of its own rather than grouping same-type siblings.")
    var noGroup = false

    @OptionGroup var point: SnapshotOptions

    @OptionGroup var source: SourceRootOption

    @Flag(name: .customLong("full-paths"), help: "Keep call sites' full paths (the build machine's) in an html report that has no --source-root.")
    var fullPaths = false

    func validate() throws {
        if let depth, depth < 0 { throw ValidationError("--depth must be 0 or more") }
        if focus?.isEmpty == true { throw ValidationError("--focus needs a coordinator id or a type name") }
    }

    func run() throws {
        guard let format = format ?? RenderOutput(path: output) else {
            throw UsageFailure(message: "cannot tell the format of \(output): give --format svg|png|pdf|dot|json|html")
        }
        // A picture of the end needs only each session's tree, not its lines (the HTML report lists every event).
        let retention: Recording.Retention = point.cut == .end && format != .htmlReport ? .treeAtEnd : .everyLine
        let progress = TerminalProgress("reading \(files.count == 1 ? files[0] : "\(files.count) files")")
        defer { progress.finish() }
        let sessions = try RecordingInput.read(files, limits: point.limits, keeping: retention)
        let session = try SessionChoice.pick(from: sessions, name: "the input", run: point.session)
        progress.stage("judging the session")
        let judged = try point.snapshot(of: session)
        progress.stage("drawing \(NumberText.grouped(judged.nodes.count)) coordinators into \(output)")
        var paths = source.paths
        // A report is an artifact people pass around: without a root it carries #fileID names, not the machine's paths.
        if format == .htmlReport, paths.root == nil { paths.dropsFullPaths = !fullPaths }
        let snapshot = paths.applied(to: judged)
        var options = RenderOptions(showReleased: showReleased, sourcePaths: paths)
        options.leaksOnly = leaksOnly
        options.groupsSiblings = !noGroup
        options.focus = focus
        options.depth = depth
        if all { options.collapseThreshold = .max }
        switch format {
        case .format(let format):
            // Straight into the file: an SVG of 100,000 coordinators is about 150 MB, which need not be in memory.
            try CommandOutput.withStream(to: output) { stream in
                do {
                    try SnapshotRenderer.render(snapshot, format: format, options: options, to: stream)
                } catch {
                    throw OutputFailure(message: "\(error)")
                }
            }
        case .htmlReport:
            let bytes: [UInt8]
            do {
                bytes = try InspectorReport.html(snapshot, log: session.log, atEnd: point.cut == .end, options: options)
            } catch {
                throw OutputFailure(message: "\(error)")
            }
            try CommandOutput.write(bytes, to: output)
        }
        progress.finish()
        WarningPrinter.print(snapshot.warnings + StoppedWithoutEnd.note(snapshot, atEnd: point.cut == .end), source: session.source)
    }
}
