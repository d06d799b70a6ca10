import CoordinatorLens
import Foundation
import Testing

/// Ids are opaque tokens: JSON integers or strings, in any mix; a string keeps its spelling in every report.
struct StringIDTests {
    /// One scenario: a still-child leak, a detached leak, a released child, under one root. `spell` writes each id's
    /// JSON value, so the same events can be sent with integer ids, string ids or both.
    static func scenario(run: String, _ spell: (Int) -> String) -> String {
        """
        {"event":"session","v":1,"app":"Shop","run":"\(run)"}
        {"seq":1,"t":0,"event":"add","id":\(spell(1)),"type":"AppCoordinator","file":"Shop/App.swift","line":3}
        {"seq":2,"t":0.1,"event":"add","id":\(spell(2)),"type":"HomeCoordinator","parent":\(spell(1)),"file":"Shop/App.swift","line":9}
        {"seq":3,"t":0.2,"event":"add","id":\(spell(3)),"type":"SettingsCoordinator","parent":\(spell(2)),"file":"Shop/Home.swift","line":21}
        {"seq":4,"t":0.3,"event":"add","id":\(spell(4)),"type":"DetailCoordinator","parent":\(spell(1)),"file":"Shop/App.swift","line":30}
        {"seq":5,"t":0.4,"event":"add","id":\(spell(5)),"type":"DoneCoordinator","parent":\(spell(1)),"file":"Shop/App.swift","line":40}
        {"seq":6,"t":1,"event":"dismiss","id":\(spell(3))}
        {"seq":7,"t":1,"event":"remove","id":\(spell(4)),"parent":\(spell(1)),"file":"Shop/App.swift","line":33}
        {"seq":8,"t":1,"event":"remove","id":\(spell(5)),"parent":\(spell(1))}
        {"seq":9,"t":1.1,"event":"deinit","id":\(spell(5))}
        {"seq":10,"t":10,"event":"end"}

        """
    }

    /// As JSON writes them: a quote, a non-ASCII character and an escape must all come back as spelled.
    static let spellings = ["", "app", "home-1", "settings \\\"3\\\" ✓", "detail\\u00e9", "5"]
    static let readSpellings = ["", "app", "home-1", "settings \"3\" ✓", "detailé", "5"]

    static func integers(_ id: Int) -> String { "\(id)" }
    static func strings(_ id: Int) -> String { "\"\(spellings[id])\"" }

    private static func snapshot(_ text: String, session: Int = 0) throws -> Snapshot {
        try Recording(bytes: Array(text.utf8)).sessions[session].snapshot()
    }

    /// Verdicts and reasons with each id replaced by its position in the scenario, so two spellings compare.
    private static func judged(_ snapshot: Snapshot, names: [String]) -> [String] {
        snapshot.nodes.map { node in
            var reason = node.reason ?? "-"
            for (index, name) in names.enumerated().dropFirst() { reason = reason.replacingOccurrences(of: "#\(name)", with: "#<\(index)>") }
            return "\(node.type) \(node.verdict.rawValue) \(reason)"
        }
    }

    @Test func stringIdsGiveTheVerdictsIntegerIdsGive() throws {
        let byInteger = try Self.snapshot(Self.scenario(run: "a", Self.integers))
        let byString = try Self.snapshot(Self.scenario(run: "b", Self.strings))
        #expect(byString.warnings.isEmpty, "\(byString.warnings)")
        #expect(byString.nodes.count == 5)
        #expect(byString.nodes.filter { $0.verdict == .retained }.count == 2)
        #expect(Self.judged(byInteger, names: (0...5).map(String.init)) == Self.judged(byString, names: Self.readSpellings))
        #expect(byString.nodes.map(\.id.description) == Array(Self.readSpellings.dropFirst()))
        #expect(byString.node("settings \"3\" ✓")?.reason == "still a child of HomeCoordinator#home-1")
    }

    @Test func integerAndStringSessionsAndMixedIdsInOneFile() throws {
        let mixed = Self.scenario(run: "mixed") { $0 % 2 == 0 ? Self.strings($0) : Self.integers($0) }
        let text = Self.scenario(run: "ints", Self.integers) + Self.scenario(run: "strings", Self.strings) + mixed
        let recording = Recording(bytes: Array(text.utf8))
        #expect(recording.sessions.count == 3)
        let verdicts = try recording.sessions.map { try $0.snapshot().nodes.map(\.verdict) }
        #expect(verdicts[0] == verdicts[1] && verdicts[1] == verdicts[2])
        let third = try recording.sessions[2].snapshot()
        #expect(third.warnings.isEmpty, "\(third.warnings)")
        #expect(third.node("home-1")?.parent == 1)
        #expect(third.node(3)?.parent == "home-1")
    }

    /// JSON's types differ, so `5` and `"5"` are two coordinators, as two JSON values that compare unequal would be.
    @Test func theNumberFiveAndTheStringFiveAreTwoCoordinators() throws {
        let text = """
            {"event":"session","v":1,"app":"A","run":"r"}
            {"seq":1,"t":0,"event":"add","id":5,"type":"Number"}
            {"seq":2,"t":0,"event":"add","id":"5","type":"Text","parent":5}
            {"seq":3,"t":0,"event":"dismiss","id":"5"}
            {"seq":4,"t":9,"event":"end"}

            """
        let snapshot = try Self.snapshot(text)
        #expect(snapshot.warnings.isEmpty, "\(snapshot.warnings)")
        #expect(snapshot.nodes.map(\.type) == ["Number", "Text"])
        #expect(snapshot.node(5)?.verdict == .alive)
        #expect(snapshot.node("5")?.verdict == .retained)
        #expect(snapshot.node("5")?.parent == 5)
        let json = CheckJSONReport.json(for: CheckResult(grace: 2, sessions: [SessionCheck(source: "-", snapshot: snapshot, atEnd: true)]))
        #expect(json.contains(#"{"id":5,"type":"Number","parent":null"#))
        #expect(json.contains(#"{"id":"5","type":"Text","parent":5"#))
        #expect(json.contains(#""path":[5,"5"]"#))
    }

    @Test func emptyAndOverlongStringIdsAreBadLinesNamingTheProblem() throws {
        let long = String(repeating: "x", count: InputLimits.maximumIDBytes + 1)
        let fits = String(repeating: "y", count: InputLimits.maximumIDBytes)
        let text = """
            {"event":"session","v":1,"app":"A","run":"r"}
            {"seq":1,"t":0,"event":"add","id":"","type":"Empty"}
            {"seq":2,"t":0,"event":"add","id":"\(long)","type":"Long"}
            {"seq":3,"t":0,"event":"add","id":"\(fits)","type":"Fits"}
            {"seq":4,"t":0,"event":"add","id":"a","type":"Child","parent":""}
            {"seq":5,"t":0,"event":"add","id":true,"type":"Boolean"}

            """
        let snapshot = try Self.snapshot(text)
        #expect(snapshot.nodes.map(\.type) == ["Fits"])
        let messages = snapshot.warnings.map(\.description)
        #expect(messages.contains("line 2: \"id\" must not be an empty string"))
        #expect(messages.contains("line 3: \"id\" is a string of \(long.utf8.count) bytes, longer than the limit of \(InputLimits.maximumIDBytes)"))
        #expect(messages.contains("line 5: \"parent\" must not be an empty string"))
        #expect(messages.contains("line 6: \"id\" must be an integer or a string, not a boolean"))
    }

    @Test func reportsKeepTheSpelling() throws {
        let snapshot = try Self.snapshot(Self.scenario(run: "b", Self.strings))
        let result = CheckResult(grace: 2, sessions: [SessionCheck(source: "s.ndjson", snapshot: snapshot, atEnd: true)])
        let text = LeakReport.text(for: result)
        #expect(text.contains("RETAINED SettingsCoordinator#settings \"3\" ✓: still a child of HomeCoordinator#home-1"), "\(text)")
        #expect(text.contains("path: AppCoordinator#app › DetailCoordinator#detailé"), "\(text)")
        let gcc = GCCReport.text(for: result)
        #expect(gcc.contains("Shop/Home.swift:21:1: error: SettingsCoordinator#settings \"3\" ✓ retained: still a child of HomeCoordinator#home-1"), "\(gcc)")
        #expect(GitHubAnnotationsReport.text(for: result).contains("SettingsCoordinator#settings \"3\" ✓ retained"))
        #expect(JUnitReport.xml(for: result).contains("SettingsCoordinator#settings &quot;3&quot; ✓ retained"))
        let sarif = try JSONSerialization.jsonObject(with: Data(SARIFReport.json(for: result).utf8)) as? [String: Any]
        #expect(sarif != nil)
        #expect(SARIFReport.json(for: result).contains(#""id":"settings \"3\" ✓""#))
        let json = try #require(try JSONSerialization.jsonObject(with: Data(CheckJSONReport.json(for: result).utf8)) as? [String: Any])
        let nodes = try #require(((json["sessions"] as? [[String: Any]])?.first?["coordinators"]) as? [[String: Any]])
        #expect(nodes.compactMap { $0["id"] as? String } == Array(Self.readSpellings.dropFirst()))
        #expect(nodes.map { $0["parent"] as? String } == [nil, "app", "home-1", nil, nil], "removed ones have no parent")
    }

    @Test func snapshotsRoundTripStringAndIntegerIdsThroughCodable() throws {
        let snapshot = try Self.snapshot(Self.scenario(run: "m") { $0 % 2 == 0 ? Self.strings($0) : Self.integers($0) })
        let decoded = try JSONDecoder().decode(Snapshot.self, from: JSONEncoder().encode(snapshot))
        #expect(decoded.nodes.map(\.id) == snapshot.nodes.map(\.id))
        #expect(decoded.nodes.map(\.id.integer) == [1, nil, 3, nil, 5])
    }

    @Test func aSessionWhoseEveryEventFailsAlikeGetsOneWarningThatSaysSo() throws {
        var text = "{\"event\":\"session\",\"v\":1,\"app\":\"A\",\"run\":\"r\"}\n"
        for seq in 1...50 { text += "{\"seq\":\(seq),\"event\":\"add\",\"id\":\(seq),\"type\":\"T\"}\n" }
        let recording = Recording(bytes: Array(text.utf8))
        #expect(recording.eventLines == 0)
        let warnings = try recording.sessions[0].snapshot().warnings
        #expect(warnings.first?.message == "no event could be used: all 50 of its event lines failed to read, every one the same way: missing \"t\"")
        #expect(warnings.first?.line == 2)
        #expect(warnings.count == 51)

        let partly = text + "{\"seq\":51,\"t\":1,\"event\":\"add\",\"id\":51,\"type\":\"T\"}\n"
        let readable = Recording(bytes: Array(partly.utf8))
        #expect(readable.eventLines == 1)
        #expect(try readable.sessions[0].snapshot().warnings.allSatisfy { !$0.message.hasPrefix("no event could be used") })
    }

    @Test func diffMatchesAnIntegerRunWithAStringRunAndKeepsBothSpellings() throws {
        let a = try Self.snapshot(Self.scenario(run: "a", Self.integers))
        let b = try Self.snapshot(Self.scenario(run: "b", Self.strings))
        let diff = TreeDiff(a, b)
        #expect(TreeDiffReport.summaryLine(for: diff).hasPrefix("+0 -0, new leaks 0, fixed 0, still leaking 2"), "\(TreeDiffReport.summaryLine(for: diff))")
        let json = String(decoding: try JSONEncoder().encode(TreeDiffJSON(diff)), as: UTF8.self)
        #expect(json.contains(#""id":"home-1""#) && json.contains(#""id":2"#))
    }
}
