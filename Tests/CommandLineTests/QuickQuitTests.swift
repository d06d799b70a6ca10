import CoordinatorTrace
import Foundation
import TestSupport
import Testing

/// An app that ends right after its leaks must never get a green `check`.
@Suite struct QuickQuitTests {
    @Test func appThatQuitsRightAfterALeakFailsCheck() async throws {
        let path = try Streams.file("")
        let tracer = Tracer()
        tracer.start(app: "Stranger", sink: .file(path), options: TraceOptions(grace: 0.3))
        let app = StrangerApp.runAndQuit(tracer: tracer)

        let check = try await BuiltProduct.coordlens.runAsync(["check", path, "--grace", "0.3"])
        #expect(check.status == 1, "\(check.standardOutput)")
        #expect(check.standardOutput.contains("RETAINED SettingsCoordinator#5: still a child of ProfileCoordinator#4"))
        #expect(check.standardOutput.contains("path: StrangerAppCoordinator#1 › MainTabCoordinator#2 › ProfileCoordinator#4 › SettingsCoordinator#5"))
        // The chat keeps its context: the parent it left and the line that removed it, and its path through that parent.
        #expect(
            check.standardOutput.contains(
                "RETAINED ChatCoordinator#6: detached from FeedCoordinator#3 at CommandLineTests/StrangerApp.swift:\(StrangerApp.line(of: "removeChild(chat)")); still alive: something else holds it"
            ))
        #expect(check.standardOutput.contains("path: StrangerAppCoordinator#1 › MainTabCoordinator#2 › FeedCoordinator#3 › ChatCoordinator#6"))
        // Call sites are the app's own lines, forwarded through its base class.
        #expect(check.standardOutput.contains("added at CommandLineTests/StrangerApp.swift:\(StrangerApp.line(of: "addChild(settings)"))"))
        #expect(check.standardOutput.contains("2 retained in 1 session"))
        withExtendedLifetime(app) {}
    }

    @Test func appThatQuitsRightAfterALeakFailsCheckOverTCP() async throws {
        let listener = try ListeningProcess(arguments: ["--sessions", "1", "--grace", "0.3"])
        defer { listener.stop() }
        let tracer = Tracer()
        tracer.start(app: "Stranger", sink: .tcp(port: listener.port), options: TraceOptions(grace: 0.3))
        let app = StrangerApp.runAndQuit(tracer: tracer)
        #expect(listener.waitForExit() == 0)

        let check = try await BuiltProduct.coordlens.runAsync(["check", listener.recording, "--grace", "0.3"])
        #expect(check.status == 1, "\(check.standardOutput)")
        #expect(check.standardOutput.contains("RETAINED SettingsCoordinator#5"))
        #expect(check.standardOutput.contains("RETAINED ChatCoordinator#6"))
        withExtendedLifetime(app) {}
    }

    /// With nothing listening, `end()` gives up on the sink at once instead of blocking the app.
    @Test func endWithNoInspectorListeningReturnsQuickly() throws {
        let tracer = Tracer()
        tracer.start(app: "Alone", sink: .tcp(port: try ClosedPort.find()), options: TraceOptions(grace: 0))
        tracer.added(AppFlowCoordinator(tracer: tracer), to: nil)
        let started = Date()
        tracer.end()
        #expect(Date().timeIntervalSince(started) < 1, "end() blocked on a sink that cannot deliver")
    }

    /// A run whose finished coordinator is still within the grace period when the recording stops is undecided: exit 1,
    /// with the reason on one line; `--allow-undecided` lets it pass.
    @Test func undecidedCoordinatorsFailUnlessAllowed() async throws {
        let path = try Streams.file(
            """
            {"event":"session","v":1,"app":"Shop","run":"short"}
            {"seq":1,"t":0,"event":"add","id":1,"type":"AppCoordinator"}
            {"seq":2,"t":0.01,"event":"add","id":5,"type":"SettingsCoordinator","parent":1}
            {"seq":3,"t":0.02,"event":"dismiss","id":5}
            {"seq":4,"t":0.12,"event":"end"}

            """)
        let check = try await BuiltProduct.coordlens.runAsync(["check", path])
        #expect(check.status == 1)
        #expect(
            check.standardOutput.contains(
                "UNDECIDED SettingsCoordinator#5: the run ended 0.1 s after SettingsCoordinator#5 was done, within the grace period of 2 s"
            ))
        #expect(check.standardOutput.contains("0 retained, 1 undecided in 1 session"))
        #expect(try await BuiltProduct.coordlens.runAsync(["check", path, "--allow-undecided"]).status == 0)

        let json = try await BuiltProduct.coordlens.runAsync(["check", path, "--format", "json"])
        #expect(json.status == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
        #expect(object["undecided"] as? Int == 1)
        let session = try #require((object["sessions"] as? [[String: Any]])?.first)
        #expect(session["ended"] as? Bool == true)
        #expect((session["undecided"] as? [[String: Any]])?.first?["id"] as? Int == 5)
    }

    @Test func emptyOrUnreadableInputExitsTwo() async throws {
        let empty = try await BuiltProduct.coordlens.runAsync(["check", try Streams.file("")])
        #expect(empty.status == 2)
        #expect(empty.standardError.contains("no session line and no event to read: the input is empty"))

        let notAStream = try await BuiltProduct.coordlens.runAsync([
            "check", try Streams.file("// swift-tools-version:6.0\nimport PackageDescription\n", name: "Package.swift"),
        ])
        #expect(notAStream.status == 2)
        #expect(notAStream.standardError.contains("all 2 lines failed to read as wire format v1 (first: line 1: malformed JSON"))

        let render = try await BuiltProduct.coordlens.runAsync(["render", try Streams.file("\n\n"), "-o", "-", "--format", "dot"])
        #expect(render.status == 2)
    }

    /// `diff` and `growth` read a recording as `check` does: the same message for an empty input, and a line past
    /// the limit skipped as it streams by rather than read whole (a 128 MiB type name, under an address-space limit that reading it whole would break).
    @Test func diffAndGrowthReadRecordingsAsCheckDoes() async throws {
        let empty = try Streams.file("")
        for arguments in [["diff", empty, try Streams.file(Streams.clean)], ["growth", empty, "--mark", "loop"]] {
            let result = try await BuiltProduct.coordlens.runAsync(arguments)
            #expect(result.status == 2, "\(arguments[0])")
            #expect(
                result.standardError.contains("\(empty): no session line and no event to read: the input is empty"), "\(arguments[0]): \(result.standardError)")
        }

        var giant = #"{"event":"session","v":1,"app":"Giant","run":"g"}"# + "\n"
        giant += #"{"seq":1,"t":0,"event":"add","id":1,"type":"App"}"# + "\n"
        giant += #"{"seq":2,"t":0.1,"event":"mark","label":"loop"}"# + "\n"
        giant += #"{"seq":3,"t":0.2,"event":"add","id":2,"type":""# + String(repeating: "G", count: 128 << 20) + #"","parent":1}"# + "\n"
        giant += #"{"seq":4,"t":0.3,"event":"add","id":3,"type":"Leaky","parent":1}"# + "\n"
        giant += #"{"seq":5,"t":0.4,"event":"mark","label":"loop"}"# + "\n"
        let path = try Streams.file(giant, name: "giant.ndjson")
        let growth = try await ProcessRun.runAsync(
            URL(fileURLWithPath: "/bin/sh"),
            ["-c", "ulimit -v 196608 && exec \"$0\" growth \"$1\" --mark loop", try BuiltProduct.coordlens.locate().path, path]
        )
        #expect(growth.status == 1, "Leaky grows (exit 1), under a 192 MiB address-space limit: \(growth.standardError)")
        #expect(growth.standardOutput.contains("Leaky"), "\(growth.standardOutput)")
    }

    @Test func smallGracePeriodsPrintInMilliseconds() async throws {
        let check = try await BuiltProduct.coordlens.runAsync(["check", try Streams.file(Streams.clean), "--grace", "0.001"])
        #expect(check.standardOutput.contains("grace 1 ms"))
    }
}

/// A `coordlens listen` process on a free port, recording into a fresh folder.
struct ListeningProcess {
    let process = Process()
    let port: Int
    let recording: String

    init(arguments: [String]) throws {
        let folder = URL(fileURLWithPath: try Streams.file("")).deletingLastPathComponent().path
        recording = folder + "/rec.ndjson"
        process.executableURL = try BuiltProduct.coordlens.locate()
        process.arguments = ["listen", "--port", "0", "--http-port", "0", "--record", recording] + arguments
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        var seen = Data()
        var found: Int?
        let deadline = Date(timeIntervalSinceNow: 20)
        while found == nil, Date() < deadline, process.isRunning {
            seen.append(output.fileHandleForReading.availableData)
            let text = String(decoding: seen, as: UTF8.self)
            if let line = text.split(separator: "\n").first(where: { $0.hasPrefix("coordlens listening on") }) {
                found = Int(line.split(separator: ":").last ?? "")
            }
        }
        guard let found else {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            throw ListenDidNotStart(output: String(decoding: seen, as: UTF8.self))
        }
        port = found
    }

    /// Waits for the process to exit by itself, for at most 20 s; its exit status, or nil when it had to be killed.
    func waitForExit() -> Int32? {
        guard waitUntil(seconds: 20, { !process.isRunning }) else { return nil }
        return process.terminationStatus
    }

    func stop() {
        // SIGKILL, not terminate(): processes started from test threads may have SIGTERM blocked (swift-corelibs-foundation#4772).
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }
}

struct ListenDidNotStart: Error {
    var output: String
}

/// A loopback port with nothing listening: bound, then closed.
enum ClosedPort {
    static func find() throws -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0 }
        }
        try #require(bound)
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
