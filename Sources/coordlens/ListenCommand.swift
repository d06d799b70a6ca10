import ArgumentParser
import CoordinatorLens
import CoordinatorLensServer
import Foundation

/// `coordlens listen`: the live inspector for hook connections.
struct ListenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "listen",
        abstract: "Accept hook connections, keep each session's live tree, re-render it as it changes."
    )

    @Option(help: "The address to bind. Loopback by default; 0.0.0.0 exposes the inspector to the network.")
    var host = "127.0.0.1"

    @Option(help: "The port to listen on; 0 picks a free one.")
    var port = 7420

    @Option(name: .customLong("out"), help: "Write <run>.svg here for every session, re-rendered as it changes.")
    var outputDirectory: String?

    @Option(help: "Record the raw stream to this file, to replay with render and check.")
    var record: String?

    @Option(help: "Seconds a done coordinator may take to deinit before it counts as retained.")
    var grace: Double = VerdictRules.defaultGrace

    @Flag(name: .customLong("show-released"), help: "Also draw released and late coordinators.")
    var showReleased = false

    @Option(help: "Exit once this many sessions have ended (for scripts); by default run until interrupted.")
    var sessions: Int?

    func run() async throws {
        var options = ListenOptions()
        options.host = host
        options.port = port
        options.outputDirectory = outputDirectory
        options.recordPath = record
        options.grace = grace
        options.showReleased = showReleased
        let server = InspectorServer(options: options) { line in say(line) }
        let bound: Int
        do {
            bound = try server.start()
        } catch {
            throw UsageFailure(message: "\(error)")
        }
        say("coordlens listening on \(host):\(bound)")
        let wanted = sessions
        let serving = Task { await server.run(untilEnded: wanted) }
        let interrupts = [SIGINT, SIGTERM].map { signalNumber in
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber)
            source.setEventHandler { serving.cancel() }
            source.resume()
            return source
        }
        await serving.value
        interrupts.forEach { $0.cancel() }
    }
}

/// Writes a status line unbuffered: people and scripts read them as they happen, also through a pipe.
private func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}
