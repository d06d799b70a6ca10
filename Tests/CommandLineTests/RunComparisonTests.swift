import Foundation
import TestSupport
import Testing

/// Runs compared in the page (`/api/compare`, `view --compare`) and `listen --baseline`, over real `view` and
/// `listen` processes and sockets.
@Suite(.serialized) struct RunComparisonTests {
    /// Two runs of app Shop: `leaking` leaks a detached PaymentCoordinator and a SettingsCoordinator, `fixed` only the
    /// SettingsCoordinator; written to a folder of their own.
    private static func runs() throws -> (leaking: String, fixed: String, folder: URL) {
        let folder = try BaselineCommandTests.folder()
        let leaking = folder.appendingPathComponent("leaking.ndjson")
        let fixed = folder.appendingPathComponent("fixed.ndjson")
        try BaselineCommandTests.recording(run: "r1", extra: ["PaymentCoordinator"]).write(to: leaking, atomically: true, encoding: .utf8)
        try BaselineCommandTests.recording(run: "r2").write(to: fixed, atomically: true, encoding: .utf8)
        return (leaking.path, fixed.path, folder)
    }

    private static func object(_ body: String) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any], "not a JSON object: \(body)")
    }

    private static func leaks(_ comparison: [String: Any], _ key: String) -> [[String: Any]] {
        comparison[key] as? [[String: Any]] ?? []
    }

    private static func ids(ofSVG text: String) throws -> [String] {
        try SVGElement.parse(Array(text.utf8)).descendants.compactMap { $0.attributes["id"] }.sorted()
    }

    @Test func theFixedRunShowsTheLeakFixedAndTheOtherWayNew() async throws {
        let (leaking, fixed, folder) = try Self.runs()
        defer { try? FileManager.default.removeItem(at: folder) }
        let view = try PageProcess(["view", "--http-port", "0", "--compare", leaking, fixed])
        defer { view.stop() }
        #expect(view.address.hasSuffix("/#compare&a=r1&b=r2"), "\(view.address)")

        let forward = try view.get("/api/compare?a=r1&b=r2")
        #expect(forward.status == 200, "\(forward.body)")
        let comparison = try Self.object(forward.body)
        let fixedLeaks = Self.leaks(comparison, "fixedLeaks")
        #expect(fixedLeaks.map { $0["type"] as? String } == ["PaymentCoordinator"])
        #expect(fixedLeaks.first?["run"] as? String == "r1", "a fixed leak is selected in A, where it leaked")
        #expect(Self.leaks(comparison, "newLeaks").isEmpty)
        #expect(Self.leaks(comparison, "stillLeaking").map { $0["type"] as? String } == ["SettingsCoordinator"])

        // The picture is the one `coordlens diff --format svg` draws: the same element ids.
        let diff = try await BuiltProduct.coordlens.runAsync(["diff", leaking, fixed, "--format", "svg"], timeout: 60)
        #expect(diff.status == 0, "\(diff.standardError)")
        let drawn = try Self.ids(ofSVG: try #require(comparison["svg"] as? String))
        #expect(!drawn.isEmpty)
        #expect(drawn == (try Self.ids(ofSVG: diff.standardOutput)))
        let node = try #require(fixedLeaks.first?["node"] as? String)
        #expect(drawn.contains(node), "the leak names its node in the picture")

        let backward = try Self.object(try view.get("/api/compare?a=r2&b=r1").body)
        let newLeaks = Self.leaks(backward, "newLeaks")
        #expect(newLeaks.map { $0["type"] as? String } == ["PaymentCoordinator"])
        #expect(newLeaks.first?["run"] as? String == "r1", "a new leak is selected in B")
        #expect(Self.leaks(backward, "fixedLeaks").isEmpty)
    }

    /// A tab panel coordinator created on every switch and never let go has no screen to dismiss, so it is no leak:
    /// the comparison lists it as piled up, with both counts, as `coordlens diff` does.
    @Test func screenlessCoordinatorsThatPileUpAreListedWithBothCounts() throws {
        let folder = try BaselineCommandTests.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        func run(_ id: String, panels: Int) throws -> String {
            var lines = [
                #"{"event":"session","v":1,"app":"Browser","run":"\#(id)"}"#,
                #"{"seq":1,"t":0,"event":"add","id":1,"type":"BrowserCoordinator"}"#,
                #"{"seq":2,"t":0,"event":"add","id":2,"type":"TabTrayCoordinator","parent":1}"#,
            ]
            for panel in 0..<panels {
                lines.append(#"{"seq":\#(3 + panel),"t":\#(Double(panel) + 1),"event":"add","id":\#(10 + panel),"type":"TabPanelCoordinator","parent":2}"#)
            }
            lines.append(#"{"seq":\#(3 + panels),"t":20,"event":"end"}"#)
            let file = folder.appendingPathComponent("\(id).ndjson")
            try (lines.joined(separator: "\n") + "\n").write(to: file, atomically: true, encoding: .utf8)
            return file.path
        }
        let view = try PageProcess(["view", "--http-port", "0", try run("fixed", panels: 1), try run("leaking", panels: 4)])
        defer { view.stop() }
        let comparison = try Self.object(try view.get("/api/compare?a=fixed&b=leaking").body)
        #expect(Self.leaks(comparison, "newLeaks").isEmpty, "no screen, no dismissal, no leak")
        let piled = Self.leaks(comparison, "pileUps")
        #expect(piled.count == 1, "\(piled)")
        #expect(piled.first?["type"] as? String == "TabPanelCoordinator")
        #expect(piled.first?["parentPath"] as? String == "BrowserCoordinator/TabTrayCoordinator")
        #expect(piled.first?["a"] as? Int == 1 && piled.first?["b"] as? Int == 4)
        let backward = try Self.object(try view.get("/api/compare?a=leaking&b=fixed").body)
        #expect(Self.leaks(backward, "pileUps").isEmpty, "fewer in use is no pile-up")
    }

    @Test func thePreviousRunOfTheAppIsTheSessionOfThatAppHeardBefore() throws {
        let (leaking, fixed, folder) = try Self.runs()
        defer { try? FileManager.default.removeItem(at: folder) }
        let view = try PageProcess(["view", "--http-port", "0", leaking, fixed])
        defer { view.stop() }
        let previous = try view.get("/api/compare?b=r2&previous=1")
        #expect(previous.status == 200, "\(previous.body)")
        let a = try Self.object(previous.body)["a"] as? [String: Any]
        #expect(a?["run"] as? String == "r1")
        let first = try view.get("/api/compare?b=r1&previous=1")
        #expect(first.status == 404)
        #expect(first.body.contains("no earlier session of Shop"), "\(first.body)")
    }

    @Test func badComparisonsAreRefusedSayingWhy() throws {
        let (leaking, fixed, folder) = try Self.runs()
        defer { try? FileManager.default.removeItem(at: folder) }
        let view = try PageProcess(["view", "--http-port", "0", leaking, fixed])
        defer { view.stop() }
        let cases: [(String, Int, String)] = [
            ("/api/compare?a=nope&b=r2", 404, "A: no session with run id nope"),
            ("/api/compare?a=r1&b=nope", 404, "B: no session with run id nope"),
            ("/api/compare?a=r1", 400, "`b` is missing"),
            ("/api/compare?b=r2", 400, "`a` is missing"),
            ("/api/compare?a=r1&b=r2&previous=1", 400, "not both"),
            ("/api/compare?a=r1&b=r2&grace=-1", 400, "`grace`"),
        ]
        for (target, status, message) in cases {
            let answer = try view.get(target)
            #expect(answer.status == status, "\(target): \(answer.body)")
            #expect(answer.body.contains(message), "\(target): \(answer.body)")
        }
    }

    @Test func comparingNeedsTheTokenAndTheRightHostAsEveryPathDoes() throws {
        let (leaking, fixed, folder) = try Self.runs()
        defer { try? FileManager.default.removeItem(at: folder) }
        let token = String(repeating: "7", count: 40)
        let view = try PageProcess(["view", "--http-port", "0", "--token", token, "--compare", leaking, fixed])
        defer { view.stop() }
        #expect(view.address.hasSuffix("/?token=\(token)#compare&a=r1&b=r2"), "\(view.address)")
        #expect(try view.get("/api/compare?a=r1&b=r2").status == 401)
        #expect(try view.get("/api/compare?a=r1&b=r2", cookie: "coordlens_token_\(view.port)=wrong").status == 401)
        #expect(try view.get("/api/compare?a=r1&b=r2", cookie: "coordlens_token_\(view.port)=\(token)").status == 200)
        #expect(try view.get("/api/compare?a=r1&b=r2", cookie: "coordlens_token_\(view.port)=\(token)", host: "evil.example:\(view.port)").status == 403)
    }

    @Test func compareTakesExactlyTwoRecordingsOfTwoRuns() async throws {
        let (leaking, _, folder) = try Self.runs()
        defer { try? FileManager.default.removeItem(at: folder) }
        let one = try await BuiltProduct.coordlens.runAsync(["view", "--http-port", "0", "--compare", leaking], timeout: 30)
        #expect(one.status != 0)
        #expect(one.standardError.contains("--compare takes two recordings"), "\(one.standardError)")
        let same = try await BuiltProduct.coordlens.runAsync(["view", "--http-port", "0", "--compare", leaking, leaking], timeout: 30)
        #expect(same.status == 2)
        #expect(same.standardError.contains("hold the same run r1"), "\(same.standardError)")
    }

    @Test func listenWithABaselineMarksLeaksKnownOrNew() async throws {
        let (leaking, fixed, folder) = try Self.runs()
        defer { try? FileManager.default.removeItem(at: folder) }
        let baseline = folder.appendingPathComponent("baseline.json").path
        let made = try await BuiltProduct.coordlens.runAsync(["baseline", fixed, "-o", baseline], timeout: 30)
        #expect(made.status == 0, "\(made.standardError)")
        let listen = try PageProcess(["listen", "--port", "0", "--http-port", "0", "--baseline", baseline])
        defer { listen.stop() }
        let announced = try #require(listen.outputLines.first { $0.hasPrefix("coordlens listening on") })
        let hookPort = try #require(Int(announced.split(separator: ":").last ?? ""))
        let hook = try RawConnection(port: hookPort)
        try hook.send(try String(contentsOfFile: leaking, encoding: .utf8))
        hook.close()

        var model: [String: Any] = [:]
        try waitUntil(seconds: 20, every: 0.1) {
            let answer = try listen.get("/api/model?run=r1")
            guard answer.status == 200, let read = try? Self.object(answer.body), (read["leaks"] as? [Any])?.count == 2 else { return false }
            model = read
            return true
        }
        let groups = try #require(model["leaks"] as? [[String: Any]], "no model with two leak groups in time")
        let standing = Dictionary(
            uniqueKeysWithValues: groups.compactMap { group -> (String, String)? in
                guard let type = group["type"] as? String, let value = group["standing"] as? String else { return nil }
                return (type, value)
            })
        #expect(standing == ["SettingsCoordinator": "known", "PaymentCoordinator": "new"])
    }
}
