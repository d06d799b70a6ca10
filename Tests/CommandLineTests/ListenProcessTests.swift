import CoordinatorLensServer
import CoordinatorTrace
import Foundation
import TestSupport
import Testing

final class ListenedCoordinator: Sendable {}
final class ListenedScreen: Sendable {}

@Suite struct ListenProcessTests {
    /// The real `coordlens listen` process, the real hook over TCP, the picture on disk, the recording replayed.
    @Test func listenRendersRecordsAndExitsAfterTheSession() async throws {
        let folder = URL(fileURLWithPath: try Streams.file("")).deletingLastPathComponent().path
        let process = Process()
        process.executableURL = try BuiltProduct.coordlens.locate()
        process.arguments = [
            "listen", "--port", "0", "--http-port", "0", "--out", folder, "--record", folder + "/rec.ndjson", "--sessions", "1", "--grace", "0.2",
        ]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        // SIGKILL, not terminate(): processes started from test threads may have SIGTERM blocked (swift-corelibs-foundation#4772).
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }

        var seen = Data()
        var port: Int?
        let deadline = Date(timeIntervalSinceNow: 20)
        while port == nil, Date() < deadline {
            seen.append(output.fileHandleForReading.availableData)
            let text = String(decoding: seen, as: UTF8.self)
            if let line = text.split(separator: "\n").first(where: { $0.hasPrefix("coordlens listening on") }) {
                port = Int(line.split(separator: ":").last ?? "")
            }
        }
        let listening = try #require(port)

        let tracer = Tracer()
        tracer.start(app: "Listened", sink: .tcp(port: listening))
        let run = try #require(tracer.runID)
        let root = ListenedCoordinator()
        let child = ListenedCoordinator()
        var screen: ListenedScreen? = ListenedScreen()
        tracer.added(root, to: nil)
        tracer.added(child, to: root)
        tracer.bind(child, to: screen!)
        screen = nil
        tracer.flush()
        // clock: the grace (0.2 s) must pass in the events' own times before the end, or the screen's departure is judged undecided.
        try await Task.sleep(for: .seconds(0.4))
        tracer.end()

        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let svg = String(decoding: try #require(FileManager.default.contents(atPath: "\(folder)/\(FileName.forRun(run)).svg")), as: UTF8.self)
        #expect(svg.contains(#"<g id="c2" class="node verdict&#45;retained">"#))
        let check = try await BuiltProduct.coordlens.runAsync(["check", folder + "/rec.ndjson", "--grace", "0.2"])
        #expect(check.status == 1)
        #expect(check.standardOutput.contains("RETAINED ListenedCoordinator#2"))
        withExtendedLifetime((root, child)) {}
    }
}
