import ArgumentParser
import CoordinatorLens
import CoordinatorLensServer
import Foundation

/// `coordlens view`: the inspector page over recordings, for CI artifacts and bug reports.
struct ViewCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "view",
        abstract: "Open recorded streams in the inspector page (the one `listen` serves), with no hook port.",
        discussion: CommandHelp.view
    )

    @Argument(help: "NDJSON recordings; - reads standard input.")
    var files: [String]

    @Option(help: "The address to bind. Loopback by default; 0.0.0.0 exposes the page to the network.")
    var host = "127.0.0.1"

    @Option(name: .customLong("http-port"), help: "The page's port; 0 picks a free one.")
    var httpPort = 7421

    @Option(help: "Seconds a done coordinator may take to deinit before it counts as retained (the page can change it).")
    var grace: Double = VerdictRules.defaultGrace

    @OptionGroup var limits: InputLimitOptions

    @OptionGroup var counts: AliveLimitOptions

    @OptionGroup var pageLimits: PageLimitOptions

    @OptionGroup var source: SourceRootOption

    @OptionGroup var editor: EditorOption

    @OptionGroup var access: TokenOptions

    @OptionGroup var known: PageLeakContextOptions

    @Flag(help: "With two recordings A and B: open the page comparing A's first session with B's, as `coordlens diff A B` does.")
    var compare = false

    func validate() throws {
        if compare, files.count != 2 { throw ValidationError("--compare takes two recordings, A and B; got \(files.count)") }
        if !(0...65_535).contains(httpPort) { throw ValidationError("--http-port must be from 0 to 65535") }
        if !(grace >= 0) { throw ValidationError("--grace must be a number of seconds, 0 or more") }
    }

    func run() async throws {
        // Compared, each file stands alone; otherwise a run that continues from one file into another is one session.
        let perFile = compare ? try files.map { try RecordingInput.read([$0], limits: limits.limits) } : []
        let inputs = compare ? perFile.flatMap { $0 } : try RecordingInput.read(files, limits: limits.limits)
        let compared = try comparedRuns(perFile)
        for input in inputs { WarningPrinter.print(input.log.notes, source: input.source) }
        let token = try access.resolve(host: host)
        let viewer = RecordingViewer(
            logs: inputs.map(\.log), grace: grace, paths: source.paths, editorURL: editor.editorURL, context: try await known.context(),
            token: token,
            limits: pageLimits.limits, aliveLimits: try counts.aliveLimits(), log: { say($0) }
        )
        let port: Int
        do {
            port = try await viewer.start(host: host, port: httpPort)
        } catch {
            throw UsageFailure(message: "\(error) (--http-port picks another port)")
        }
        let count = viewer.sessions.runs.count
        say("\(count) session\(count == 1 ? "" : "s") from \(files.count) file\(files.count == 1 ? "" : "s")")
        if count < inputs.count { say("\(inputs.count - count) sessions repeat a run id already shown and were left out") }
        let fragment = compared.map { CompareFragment.text(a: $0.a, b: $0.b) } ?? ""
        say("Inspector: \(InspectorAddress.url(host: host, port: port, token: token))\(fragment)  (Ctrl-C stops)")
        for address in ReachableAddresses.forBinding(host) {
            say("  from the network: \(InspectorAddress.url(host: address, port: port, token: token))\(fragment)")
        }
        // Sleeps until Ctrl-C cancels it: a sleeping task holds no thread.
        let serving = Task { while !Task.isCancelled { try? await Task.sleep(nanoseconds: 3_600_000_000_000) } }
        do {
            try await viewer.onInterrupt { serving.cancel() }
        } catch {
            say("coordlens: Ctrl-C cannot stop view cleanly: \(error)")
        }
        await serving.value
        await viewer.stop()
    }

    /// With `--compare`: the first session of A's file and of B's, which must be two runs.
    private func comparedRuns(_ perFile: [[InputSession]]) throws -> (a: String, b: String)? {
        guard compare, let a = perFile.first?.first, let b = perFile.last?.first else { return nil }
        guard a.log.header.run != b.log.header.run else {
            throw UsageFailure(message: "--compare: \(a.source) and \(b.source) hold the same run \(a.log.header.run); compare two runs")
        }
        return (a.log.header.run, b.log.header.run)
    }
}
