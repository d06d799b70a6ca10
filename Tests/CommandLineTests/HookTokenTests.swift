import CoordinatorLens
import CoordinatorTrace
import Foundation
import TestSupport
import Testing

@testable import CoordinatorLensServer

/// A hook's token, checked by `listen` before anything of the connection is kept: sample apps as real processes,
/// `listen` as another, over loopback (NetworkAccessTests does the same across a network boundary).
@Suite(.serialized) struct HookTokenTests {
    static let deliveroo = BuiltProduct("DeliverooTraditionalSample", directoryVariable: "SAMPLES_BIN_DIR")

    /// The `token: "…"` of a hook line `listen` printed.
    static func token(inHookLine line: String) -> String? {
        guard let start = line.range(of: "token: \"")?.upperBound, let end = line[start...].firstIndex(of: "\"") else { return nil }
        return String(line[start..<end])
    }

    /// The run ids of the sessions in the recording at `path`.
    static func recordedRuns(_ path: String) -> [String] {
        guard let bytes = FileManager.default.contents(atPath: path) else { return [] }
        return Recording(bytes: Array(bytes)).sessions.map(\.header.run)
    }

    @Test func onLoopbackAGivenTokenIsWantedFromTheHookToo() async throws {
        let folder = try TemporaryFolder("coordlens-token")
        defer { withExtendedLifetime(folder) {} }
        let path = folder.file("rec.ndjson")
        let given = String(repeating: "k", count: 40)
        let listen = try ListenProcess(["--token", given, "--record", path])
        defer { listen.stop() }
        let hookLine = try #require(listen.waitForLine(timeout: 10) { $0.hasPrefix("Hook: ") }, "\(listen.lines)")
        #expect(hookLine.contains(".tcp(port: \(listen.port), token: \"\(given)\")"), "loopback is the default host: \(hookLine)")

        let unauthorised = try await Self.deliveroo.runAsync(["--tcp", "127.0.0.1:\(listen.port)"], timeout: 60)
        #expect(unauthorised.status == 0, "the app goes on: \(unauthorised.standardError)")
        #expect(unauthorised.standardError.contains("refused this app's connection: it wants a token"), "\(unauthorised.standardError)")
        #expect(unauthorised.standardError.components(separatedBy: "refused").count == 2, "said once: \(unauthorised.standardError)")
        #expect(listen.waitForLine(timeout: 10) { $0.contains("refused a hook connection from 127.0.0.1: no token") } != nil, "\(listen.lines)")

        let tracer = Tracer()
        tracer.start(app: "Tokened", sink: .tcp(port: listen.port, token: given), options: TraceOptions(endTimeout: 10))
        let run = try #require(tracer.runID)
        HookStreamer(tracer, rounds: 5, perRound: 50, pause: 0).wait()
        tracer.end()
        #expect(listen.waitForLine(timeout: 20) { $0.contains("Tokened") && $0.contains("[ended]") } != nil, "\(listen.lines)")
        #expect(listen.send(SIGTERM, exitWithin: 10))
        #expect(Self.recordedRuns(path) == [run], "the refused app left nothing in the recording")
        try HookAccounting.expectEverythingAccounted(tracer, run: run, path: path)
    }

    @Test func anAuthLineToAListenWithoutTokenIsTakenOff() throws {
        let folder = try TemporaryFolder("coordlens-token")
        defer { withExtendedLifetime(folder) {} }
        let path = folder.file("rec.ndjson")
        let listen = try ListenProcess(["--record", path])
        defer { listen.stop() }
        let tracer = Tracer()
        tracer.start(app: "Spare", sink: .tcp(port: listen.port, token: String(repeating: "s", count: 32)), options: TraceOptions(endTimeout: 10))
        let run = try #require(tracer.runID)
        HookStreamer(tracer, rounds: 2, perRound: 20, pause: 0).wait()
        tracer.end()
        #expect(listen.waitForLine(timeout: 20) { $0.contains("Spare") && $0.contains("[ended]") } != nil, "\(listen.lines)")
        #expect(listen.send(SIGTERM, exitWithin: 10))
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(!text.contains("auth"), "the token never reaches the recording")
        #expect(!listen.lines.contains { $0.contains("unreadable") }, "\(listen.lines)")
        try HookAccounting.expectEverythingAccounted(tracer, run: run, path: path)
    }

    @Test func authLinesAreReadStrictly() {
        #expect(HookTokenGate.token(inAuthLine: Array(#"{"auth":"abc"}"#.utf8)) == "abc")
        #expect(HookTokenGate.token(inAuthLine: Array("{\"auth\":\"abc\"}\r".utf8)) == "abc")
        #expect(HookTokenGate.token(inAuthLine: Array(#"{"auth":"a\"bc"}"#.utf8)) == nil)
        #expect(HookTokenGate.token(inAuthLine: Array(#"{"event":"session","v":1,"app":"A","run":"r"}"#.utf8)) == nil)
        #expect(HookTokenGate.token(inAuthLine: Array(#"{"auth":""#.utf8)) == nil)
    }
}
