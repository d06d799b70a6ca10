import Foundation
import TestSupport
import Testing

@Suite struct CheckCommandTests {
    @Test func exitsOneAndNamesTheLeakWithItsPlaceAndPath() async throws {
        let result = try await BuiltProduct.coordlens.runAsync(["check", try Streams.file(Streams.leaking)])
        #expect(result.status == 1)
        #expect(result.standardOutput.contains("RETAINED CheckoutCoordinator#2: still a child of AppCoordinator#1"))
        #expect(result.standardOutput.contains("added at App.swift:40"))
        #expect(result.standardOutput.contains("path: AppCoordinator#1 › CheckoutCoordinator#2"))
        #expect(result.standardOutput.contains("1 retained in 1 session"))
    }

    @Test func exitsZeroWhenNothingIsRetained() async throws {
        let result = try await BuiltProduct.coordlens.runAsync(["check", try Streams.file(Streams.clean)])
        #expect(result.status == 0, "\(result.standardOutput)\(result.standardError)")
        #expect(result.standardOutput.contains("0 retained in 1 session"))
    }

    @Test func graceDecides() async throws {
        let path = try Streams.file(Streams.leaking)
        // Done 4 s before the end: within a 10 s grace nobody can tell yet, which fails unless allowed.
        #expect(try await BuiltProduct.coordlens.runAsync(["check", path, "--grace", "10"]).status == 1)
        #expect(try await BuiltProduct.coordlens.runAsync(["check", path, "--grace", "10", "--allow-undecided"]).status == 0)
        #expect(try await BuiltProduct.coordlens.runAsync(["check", path, "--at-mark", "opened"]).status == 0)
    }

    @Test(arguments: [
        ["check", "/no/such/file.ndjson"],
        ["check", "--bogus"],
        ["check"],
        ["check", "-", "--at-seq", "1", "--at-time", "2"],
        ["check", "-", "--at-mark", "never"],
        ["check", "-", "--session", "other"],
        ["check", "-", "--grace", "-1"],
    ])
    func badUsageOrInputExitsTwo(arguments: [String]) async throws {
        let result = try await BuiltProduct.coordlens.runAsync(arguments, input: Streams.leaking)
        #expect(result.status == 2, "\(arguments): \(result.standardError)")
        #expect(!result.standardError.isEmpty)
    }

    @Test func jsonOfADeepChainIsLinearInItsSize() async throws {
        // 20,000 deep, every step leaking: whole paths would be 200 million ids.
        var lines = [#"{"event":"session","v":1,"app":"Deep","run":"chain"}"#, #"{"seq":1,"t":0,"event":"add","id":1,"type":"AppCoordinator"}"#]
        for id in 2...20_000 { lines.append(#"{"seq":\#(id),"t":0.1,"event":"add","id":\#(id),"type":"StepCoordinator","parent":\#(id - 1)}"#) }
        for id in 2...20_000 { lines.append(#"{"seq":\#(20_000 + id),"t":1,"event":"dismiss","id":\#(id)}"#) }
        lines.append(#"{"seq":40001,"t":10,"event":"end"}"#)
        let result = try await BuiltProduct.coordlens.runAsync(["check", try Streams.file(lines.joined(separator: "\n") + "\n"), "--format", "json"])
        #expect(result.status == 1)
        #expect(result.standardOutput.utf8.count < 20_000 * 600, "\(result.standardOutput.utf8.count) bytes")
        let json = try #require(JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        let sessions = try #require(json["sessions"] as? [[String: Any]])
        let coordinators = try #require(sessions.first?["coordinators"] as? [[String: Any]])
        let deepest = try #require(coordinators.first { $0["id"] as? Int == 20_000 })
        // The root, then the last 24 steps; the 19,975 between them counted.
        #expect(deepest["path"] as? [Int] == [1] + Array(19_977...20_000))
        #expect(deepest["omittedSteps"] as? Int == 19_975)
        #expect(deepest["parent"] as? Int == 19_999)
        let shallow = try #require(coordinators.first { $0["id"] as? Int == 32 })
        #expect(shallow["path"] as? [Int] == Array(1...32), "32 steps are printed whole")
        #expect(shallow["omittedSteps"] as? Int == 0)
    }

    @Test func jsonHasTheDocumentedShapeAndOrder() async throws {
        let result = try await BuiltProduct.coordlens.runAsync(["check", "-", "--format", "json"], input: Streams.leaking + Streams.clean)
        #expect(result.status == 1)
        #expect(
            result.standardOutput.hasPrefix(
                #"{"grace":2,"sessions":[{"app":"Shop","run":"leaky","evaluatedAt":5,"ended":true,"coordinators":[{"id":1,"type":"AppCoordinator","parent":null,"verdict":"alive","reason":null,"added":{"file":"App.swift","line":3,"function":null},"bound":null,"dismissed":null,"removed":null,"path":[1],"omittedSteps":0},{"id":2,"type":"CheckoutCoordinator","parent":1,"verdict":"retained","reason":"still a child of AppCoordinator#1","reasonKind":"still-child","added":{"file":"App.swift","line":40,"function":null},"bound":null,"dismissed":null,"removed":null,"path":[1,2],"omittedSteps":0}],"causes":[{"cause":"CheckoutCoordinator still a child of AppCoordinator","cycle":false,"count":1,"ids":[2],"heldThrough":[]}],"undecided":[],"warnings":[]}"#
            ))
        #expect(result.standardOutput.hasSuffix(#""retained":1,"undecided":0}"# + "\n"))
        let object = try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any]
        let sessions = object?["sessions"] as? [[String: Any]]
        #expect(sessions?.map { $0["run"] as? String } == ["leaky", "clean"])
        #expect(object?["retained"] as? Int == 1)
    }

    @Test func malformedLinesAreWarningsWithLineNumbersAndTheRestIsJudged() async throws {
        let broken = Streams.leaking.replacingOccurrences(of: #"{"seq":4,"t":0.5,"event":"mark","label":"opened"}"#, with: "{oops")
        let result = try await BuiltProduct.coordlens.runAsync(["check", "-"], input: broken)
        #expect(result.status == 1)
        #expect(result.standardOutput.contains("<stdin>:5: malformed JSON"))
        #expect(result.standardOutput.contains("RETAINED CheckoutCoordinator#2"))
    }
}
