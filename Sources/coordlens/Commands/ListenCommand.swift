import ArgumentParser
import CoordinatorLens
import CoordinatorLensServer
import Foundation

/// `coordlens listen`: the live inspector for hook connections.
struct ListenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "listen",
        abstract: "Accept hook connections, keep each session's live tree, re-render it as it changes.",
        discussion: CommandHelp.listen
    )

    @Option(help: "The address to bind. Loopback by default; 0.0.0.0 exposes the inspector to the network.")
    var host = "127.0.0.1"

    @Option(help: "The port to listen on; 0 picks a free one.")
    var port = 7420

    @Option(name: .customLong("http-port"), help: "The inspector page's port, on the same address; 0 picks a free one.")
    var httpPort = 7421

    @Flag(name: .customLong("no-http"), help: "Serve no inspector page.")
    var noHTTP = false

    @Option(name: .customLong("out"), help: "Write <run>-<hash>.svg here for every session, re-rendered as it changes.")
    var outputDirectory: String?

    @Option(help: "Record the stream (every line that decodes) to this file, to replay with render and check.")
    var record: String?

    @Option(help: "Seconds a done coordinator may take to deinit before it counts as retained.")
    var grace: Double = VerdictRules.defaultGrace

    @Flag(name: .customLong("show-released"), help: "Also draw released and late coordinators.")
    var showReleased = false

    @Option(help: "Exit once this many sessions have ended (for scripts); by default run until interrupted.")
    var sessions: Int?

    @Option(name: .customLong("max-line-bytes"), help: "The longest line a connection may send; longer ones are skipped up to their newline, with a warning.")
    var maxLineBytes = ListenOptions().maxLineBytes

    @Option(name: .customLong("max-kept-malformed"), help: "Malformed or over-long lines kept as warnings per session; further ones are only counted.")
    var maxKeptMalformed = ListenOptions().maxKeptMalformed

    @Option(name: .customLong("evict-after"), help: "Seconds a session without a connection stays in memory; its recording and picture stay on disk.")
    var evictAfter = ListenOptions().evictAfter

    @Option(
        name: .customLong("max-sessions"),
        help: "Sessions held in memory at once; a new run past it evicts the oldest disconnected one, or is closed when all are connected.")
    var maxSessions = ListenOptions().maxSessions

    @Option(
        name: .customLong("max-connections"),
        help: "Open hook connections at once; past it new ones are closed. Default: the open-file limit less 32 and the page's share, at most 1024.")
    var maxConnections: Int?

    @Option(
        name: .customLong("hook-idle-timeout"),
        help: "Seconds a hook connection may send no complete line before it is closed (hooks send a heartbeat at least every 60 s).")
    var hookIdleTimeout = ListenOptions().hookIdleTimeout

    @Option(
        name: .customLong("record-buffer-bytes"), help: "Bytes of recording waiting for the disk; past it lines are dropped from the recording and counted.")
    var recordBufferBytes = ListenOptions().recordBufferBytes

    @Option(
        name: .customLong("max-coordinators"),
        help: "Coordinators one session keeps in memory; past it new ones are counted (and recorded), not drawn or judged, with a warning.")
    var maxCoordinators = ListenOptions().maxCoordinators

    @Option(name: .customLong("max-history-events"), help: "Events of one session kept for the page's time travel; past it the slider covers the first part.")
    var maxHistoryEvents = ListenOptions().maxHistoryEvents

    @Option(name: .customLong("large-tree"), help: "Above this many drawn coordinators, lay the picture out without Graphviz's dot (fast).")
    var largeTree = ListenOptions().largeTreeThreshold

    func validate() throws {
        let positive = [
            ("--max-line-bytes", maxLineBytes), ("--max-sessions", maxSessions), ("--max-connections", maxConnections ?? 1),
            ("--record-buffer-bytes", recordBufferBytes), ("--large-tree", largeTree),
            ("--max-coordinators", maxCoordinators), ("--max-history-events", maxHistoryEvents),
        ]
        if let (name, _) = positive.first(where: { $0.1 < 1 }) { throw ValidationError("\(name) must be at least 1") }
        if !noHTTP, !(0...65_535).contains(httpPort) { throw ValidationError("--http-port must be from 0 to 65535") }
        if maxKeptMalformed < 0 { throw ValidationError("--max-kept-malformed must not be negative") }
        if !(evictAfter >= 0) { throw ValidationError("--evict-after must be a number of seconds, 0 or more") }
        if !(hookIdleTimeout > 0) { throw ValidationError("--hook-idle-timeout must be a number of seconds above 0") }
    }

    @OptionGroup var pageLimits: PageLimitOptions

    @OptionGroup var counts: AliveLimitOptions

    @OptionGroup var source: SourceRootOption

    @OptionGroup var editor: EditorOption

    @OptionGroup var access: TokenOptions

    @OptionGroup var known: PageLeakContextOptions

    func run() async throws {
        let token = try access.resolve(host: host)
        var options = ListenOptions()
        options.host = host
        options.port = port
        options.httpPort = noHTTP ? nil : httpPort
        options.outputDirectory = outputDirectory
        options.recordPath = record
        options.grace = grace
        options.aliveLimits = try counts.aliveLimits()
        options.showReleased = showReleased
        options.maxLineBytes = maxLineBytes
        options.maxKeptMalformed = maxKeptMalformed
        options.evictAfter = evictAfter
        options.maxSessions = maxSessions
        options.maxConnections = maxConnections
        options.hookIdleTimeout = hookIdleTimeout
        options.page = pageLimits.limits
        options.recordBufferBytes = recordBufferBytes
        options.largeTreeThreshold = largeTree
        options.maxCoordinators = maxCoordinators
        options.maxHistoryEvents = maxHistoryEvents
        options.sourcePaths = source.paths
        options.editorURL = editor.editorURL
        options.token = token
        options.leakContext = try await known.context()
        let server = InspectorServer(options: options) { line in say(line) }
        let bound: Int
        do {
            bound = try await server.start()
        } catch {
            throw UsageFailure(message: "\(error)")
        }
        say("coordlens listening on \(host):\(bound)")
        if let pagePort = server.pagePort { say("Inspector: \(InspectorAddress.url(host: host, port: pagePort, token: token))") }
        let reachable = ReachableAddresses.forBinding(host)
        if reachable.isEmpty, token != nil { say("Hook: CoordinatorTrace.start(app: …, sink: \(HookLine.sink(host: host, port: bound, token: token)))") }
        for address in reachable {
            if let pagePort = server.pagePort { say("  from the network: \(InspectorAddress.url(host: address, port: pagePort, token: token))") }
            say("  hook from the network: CoordinatorTrace.start(app: …, sink: \(HookLine.sink(host: address, port: bound, token: token)))")
        }
        let wanted = sessions
        let serving = Task { await server.run(untilEnded: wanted) }
        do {
            try await server.onInterrupt { serving.cancel() }
        } catch {
            say("coordlens: Ctrl-C cannot stop listen cleanly: \(error)")
        }
        await serving.value
    }
}

/// The inspector page's address as a browser takes it: IPv6 literals in brackets.
enum InspectorAddress {
    /// The address, with `?token=` when the page wants one: the first visit trades it for a cookie.
    static func url(host: String, port: Int, token: AccessToken? = nil) -> String {
        let shown = host == "0.0.0.0" ? "127.0.0.1" : host == "::" ? "[::1]" : host.contains(":") ? "[\(host)]" : host
        return "http://\(shown):\(port)/" + (token.map { "?token=\($0.text)" } ?? "")
    }
}

/// Writes a status line unbuffered: people and scripts read them as they happen, also through a pipe. A reader that
/// went away (`listen | head`) loses the lines; it must not stop the inspector.
func say(_ line: String) {
    try? FileHandle.standardOutput.write(contentsOf: Data((line + "\n").utf8))
}
