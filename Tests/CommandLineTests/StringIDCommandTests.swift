import Foundation
import TestSupport
import Testing

/// String ids through the built `coordlens`: kept as spelled in reports and pictures; a stream none of whose events
/// can be read is bad input.
struct StringIDCommandTests {
    static let stream = """
        {"event":"session","v":1,"app":"Shop","run":"r"}
        {"seq":1,"t":0,"event":"add","id":"app","type":"AppCoordinator","file":"Shop/App.swift","line":3}
        {"seq":2,"t":0.1,"event":"add","id":"home-1","type":"HomeCoordinator","parent":"app","file":"Shop/App.swift","line":9}
        {"seq":3,"t":0.2,"event":"add","id":7,"type":"SettingsCoordinator","parent":"home-1","file":"Shop/Home.swift","line":21}
        {"seq":4,"t":1,"event":"dismiss","id":7}
        {"seq":5,"t":10,"event":"end"}

        """

    @Test func checkAndRenderKeepTheSpelling() async throws {
        let file = try Streams.file(Self.stream)
        let gcc = try await BuiltProduct.coordlens.runAsync(["check", file, "--format", "gcc"])
        #expect(gcc.status == 1, "\(gcc.standardError)")
        #expect(gcc.standardOutput.contains("Shop/Home.swift:21:1: error: SettingsCoordinator#7 retained: still a child of HomeCoordinator#home-1"))
        let svg = try await BuiltProduct.coordlens.runAsync(["render", file, "-o", "-", "--format", "svg"])
        #expect(svg.status == 0, "\(svg.standardError)")
        #expect(svg.standardOutput.contains(#"id="cs686f6d652d31""#), "home-1 in hex")
        #expect(svg.standardOutput.contains("HomeCoordinator#home&#45;1"), "Graphviz writes the hyphen as a character reference")
    }

    @Test func aStreamWhoseEveryEventFailsAlikeExitsTwoAndSaysSo() async throws {
        let text = """
            {"event":"session","v":1,"app":"Shop","run":"r"}
            {"seq":1,"event":"add","id":1,"type":"A"}
            {"seq":2,"event":"add","id":2,"type":"B","parent":1}
            {"seq":3,"event":"dismiss","id":2}

            """
        let check = try await BuiltProduct.coordlens.runAsync(["check", try Streams.file(text)])
        #expect(check.status == 2)
        #expect(
            check.standardError.contains("no event could be used: all 3 of its event lines failed to read, every one the same way: missing \"t\""),
            "\(check.standardError)")
    }
}
