import ArgumentParser
import CoordinatorLens
import CoordinatorLensRendering
import Foundation

/// `coordlens render`: one session's tree as a picture, DOT or JSON snapshot.
struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Render a session's coordinator tree to svg, png, pdf, dot or json."
    )

    @Argument(help: "Recordings in wire format v1 (NDJSON); - reads standard input.")
    var files: [String]

    @Option(name: .shortAndLong, help: "The output file; - writes to standard output (then --format is needed).")
    var output: String

    @Option(help: "svg, png, pdf, dot or json; taken from the output's extension when not given.")
    var format: RenderFormat?

    @Flag(name: .customLong("show-released"), help: "Also draw released and late coordinators, greyed and dashed.")
    var showReleased = false

    @OptionGroup var point: SnapshotOptions

    @OptionGroup var source: SourceRootOption

    func run() throws {
        guard let format = format ?? RenderFormat(path: output) else {
            throw UsageFailure(message: "cannot tell the format of \(output): give --format svg|png|pdf|dot|json")
        }
        let sessions = try point.select(try RecordingInput.read(files))
        guard let session = sessions.first else { throw UsageFailure(message: "the input holds no session") }
        guard sessions.count == 1 else {
            throw UsageFailure(message: "the input holds \(sessions.count) sessions; pick one with --session: \(sessions.map(\.log.header.run).joined(separator: ", "))")
        }
        let snapshot = try point.snapshot(of: session)
        let bytes: [UInt8]
        do {
            bytes = try SnapshotRenderer.render(snapshot, format: format, options: RenderOptions(showReleased: showReleased, sourcePaths: source.paths))
        } catch {
            throw UsageFailure(message: "\(error)")
        }
        if output == "-" {
            FileHandle.standardOutput.write(Data(bytes))
        } else {
            do {
                try Data(bytes).write(to: URL(fileURLWithPath: output))
            } catch {
                throw UsageFailure(message: "cannot write \(output): \(error.localizedDescription)")
            }
        }
        for warning in snapshot.warnings {
            FileHandle.standardError.write(Data("\(session.source):\(warning.line): \(warning.message)\n".utf8))
        }
    }
}

extension RenderFormat: ExpressibleByArgument {}
