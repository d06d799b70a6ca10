@_spi(Testing) import CoordinatorTrace
import Foundation
import TestSupport
import Testing

/// The Stranger app (its own base class, a modal swiped down, a closure keeping a chat alive, quitting right after
/// the leak) streams twice with a token to one `listen`, restarted between the runs onto the same recording: both
/// runs are kept whole and judged, each as its own session.
@Suite(.serialized) struct StrangerOverTheWireTests {
    private static func runStranger(port: Int, token: String) throws -> (run: String, counts: TraceCounts) {
        let tracer = Tracer()
        tracer.start(app: "Stranger", sink: .tcp(port: port, token: token), options: TraceOptions(endTimeout: 10, grace: 0.3))
        let run = try #require(tracer.runID)
        withExtendedLifetime(StrangerApp.runAndQuit(tracer: tracer)) {}
        return (run, try #require(tracer.finalCounts(timeout: 30)))
    }

    @Test func twoRunsThroughARestartedListenAreBothKeptAndJudged() async throws {
        let folder = try TemporaryFolder("coordlens-stranger")
        defer { withExtendedLifetime(folder) {} }
        let path = folder.file("rec.ndjson")
        let token = String(repeating: "s", count: 40)
        let first = try ListenProcess(["--token", token, "--record", path])
        let one = try Self.runStranger(port: first.port, token: token)
        #expect(first.waitForLine(timeout: 20) { $0.contains("[ended]") } != nil, "\(first.lines)")
        #expect(first.send(SIGTERM, exitWithin: 10))

        let second = try ListenProcess(["--token", token, "--record", path])
        defer { second.stop() }
        let two = try Self.runStranger(port: second.port, token: token)
        #expect(second.waitForLine(timeout: 20) { $0.contains("[ended]") } != nil, "\(second.lines)")
        #expect(second.send(SIGTERM, exitWithin: 10))

        #expect(HookTokenTests.recordedRuns(path) == [one.run, two.run], "the rerun appends; the first run stays")
        #expect(one.counts.dropped == 0 && two.counts.dropped == 0)
        let check = try await BuiltProduct.coordlens.runAsync(["check", "--grace", "0.3", path], timeout: 60)
        #expect(check.status == 1)
        let retained = check.standardOutput.components(separatedBy: "RETAINED SettingsCoordinator").count - 1
        #expect(retained == 2, "the swiped-down modal is retained in each run:\n\(check.standardOutput)")
        #expect(check.standardOutput.contains("in 2 sessions"), "\(check.standardOutput)")
    }
}
