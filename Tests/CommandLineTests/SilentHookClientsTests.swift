import CoordinatorTrace
import Foundation
import TestSupport
import Testing

/// Beyond loopback, with the token: connections to the hook port that never show it (more of them than the port
/// takes, held open and silent) cannot keep an app that brings the token from connecting, nor close it once it has.
@Suite(.serialized, .enabled(if: NetworkNamespace.unavailable == nil, "\(NetworkNamespace.unavailable ?? "")"))
struct SilentHookClientsTests {
    /// Silent connections to the hook port from this side of the link; some are closed by `listen` as others come.
    private static func silent(_ count: Int, host: String, port: Int) -> [RawConnection] {
        (0..<count).compactMap { _ in try? RawConnection(host: host, port: port) }
    }

    @Test(.timeLimit(.minutes(1)))
    func silentConnectionsWithoutTheTokenCannotTakeTheAppsPlace() throws {
        let namespace = try NetworkNamespace()
        defer { namespace.remove() }
        let folder = try TemporaryFolder("coordlens-silent")
        defer { withExtendedLifetime(folder) {} }
        let path = folder.file("rec.ndjson")
        let token = String(repeating: "s", count: 48)
        let listen = try ListenProcess(
            ["--host", "0.0.0.0", "--token", token, "--max-connections", "16", "--record", path], namespace: namespace)
        defer { listen.stop() }
        let host = namespace.insideAddress

        // 40 for 16 places: before, the first 16 held every place until the hook idle timeout (180 s) and the app's
        // connection was closed as soon as it came.
        let before = Self.silent(40, host: host, port: listen.port)
        #expect(
            listen.waitForLine(timeout: 10) { $0.contains("closing the connections that have waited longest") } != nil,
            "the oldest silent ones gave way: \(listen.lines)")

        let tracer = Tracer()
        tracer.start(app: "Silenced", sink: .tcp(host: host, port: listen.port, token: token), options: TraceOptions(endTimeout: 20))
        let run = try #require(tracer.runID)
        HookStreamer(tracer, rounds: 3, perRound: 50, pause: 0).wait()
        #expect(listen.waitForLine(timeout: 20) { $0.contains("Silenced") } != nil, "the app got in: \(listen.lines)")

        // Once it has shown the token, no number of silent newcomers takes its place.
        let after = Self.silent(40, host: host, port: listen.port)
        HookStreamer(tracer, rounds: 3, perRound: 50, pause: 0).wait()
        tracer.end()
        #expect(listen.waitForLine(timeout: 20) { $0.contains("Silenced") && $0.contains("[ended]") } != nil, "\(listen.lines)")
        #expect(!listen.lines.contains { $0.contains("Silenced") && $0.contains("[disconnected]") }, "one connection throughout: \(listen.lines)")
        #expect(listen.send(SIGTERM, exitWithin: 10))
        #expect(HookTokenTests.recordedRuns(path) == [run], "only the app with the token is recorded")
        try HookAccounting.expectEverythingAccounted(tracer, run: run, path: path)
        withExtendedLifetime((before, after)) {}
    }
}
