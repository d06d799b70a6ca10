import Foundation
import TestSupport
import Testing

/// Where a coordinator was added, bound, dismissed and removed, recorded through the real hook (`#filePath` as `path`)
/// and printed relative to a checkout with `--source-root`, so a tool can open the line.
@Suite(.serialized) struct SourceLocationTests {
    private static let root = PackageRoot.url.path

    @Test func jsonGivesEveryCallSiteAndThePathFromTheRoot() async throws {
        let path = try await StrangerRecording.file()
        let result = try await BuiltProduct.coordlens.runAsync(["check", path, "--grace", "0.3", "--format", "json", "--source-root", Self.root])
        #expect(result.status == 1, "\(result.standardError)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        let sessions = try #require(object["sessions"] as? [[String: Any]])
        let coordinators = try #require(sessions.first?["coordinators"] as? [[String: Any]])
        let settings = try #require(coordinators.first { $0["type"] as? String == "SettingsCoordinator" })
        let added = try #require(settings["added"] as? [String: Any])
        #expect(added["file"] as? String == "Tests/CommandLineTests/StrangerApp.swift")
        #expect(added["line"] as? Int == StrangerApp.line(of: "addChild(settings)"))
        #expect(added["function"] as? String == "openSettingsAndSwipeDown()")
        let bound = try #require(settings["bound"] as? [String: Any])
        #expect(bound["line"] as? Int == StrangerApp.line(of: "tracer.bind(settings, to: screen)"))
        #expect(settings["dismissed"] is NSNull, "its screen's deallocation dismissed it: no call site")
        #expect(settings["path"] as? [Int] == [1, 2, 4, 5])
        let chat = try #require(coordinators.first { $0["type"] as? String == "ChatCoordinator" })
        let removed = try #require(chat["removed"] as? [String: Any])
        #expect(removed["file"] as? String == "Tests/CommandLineTests/StrangerApp.swift")
        #expect(removed["line"] as? Int == StrangerApp.line(of: "removeChild(chat)"))
        #expect(chat["path"] as? [Int] == [1, 2, 3, 6], "a detached coordinator's path goes through the parent it left")

        // The file and line a tool would open are the ones that added the coordinator.
        let source = try String(contentsOfFile: Self.root + "/Tests/CommandLineTests/StrangerApp.swift", encoding: .utf8)
        let reported = try #require(added["line"] as? Int)
        let line = source.split(separator: "\n", omittingEmptySubsequences: false)[reported - 1]
        #expect(line.contains("addChild(settings)"))
    }

    @Test func gccAndTextPrintPathsRelativeToTheSourceRootAndFileIDsWithout() async throws {
        let path = try await StrangerRecording.file()
        let rooted = try await BuiltProduct.coordlens.runAsync(["check", path, "--grace", "0.3", "--format", "gcc", "--source-root", Self.root + "/"])
        #expect(
            rooted.standardOutput.contains(
                "Tests/CommandLineTests/StrangerApp.swift:\(StrangerApp.line(of: "addChild(settings)")):1: error: SettingsCoordinator#5 retained: still a child of ProfileCoordinator#4"
                    + "; held by ProfileCoordinator.children[] (element)\n"
            ), "\(rooted.standardOutput)")
        let text = try await BuiltProduct.coordlens.runAsync(["check", path, "--grace", "0.3", "--source-root", Self.root])
        #expect(text.standardOutput.contains("added at Tests/CommandLineTests/StrangerApp.swift:\(StrangerApp.line(of: "addChild(settings)"))"))
        let plain = try await BuiltProduct.coordlens.runAsync(["check", path, "--grace", "0.3", "--format", "gcc"])
        #expect(
            plain.standardOutput.contains("CommandLineTests/StrangerApp.swift:\(StrangerApp.line(of: "addChild(settings)")):1: error: SettingsCoordinator#5"))
        #expect(!plain.standardOutput.contains("Tests/CommandLineTests"))
        // A checkout elsewhere: no output names a path outside the root, so the #fileID stands.
        let elsewhere = try await BuiltProduct.coordlens.runAsync(["check", path, "--grace", "0.3", "--format", "gcc", "--source-root", "/nowhere"])
        #expect(
            elsewhere.standardOutput.contains("\nCommandLineTests/StrangerApp.swift:\(StrangerApp.line(of: "addChild(settings)")):1: error: ")
                || elsewhere.standardOutput.hasPrefix("CommandLineTests/StrangerApp.swift:\(StrangerApp.line(of: "addChild(settings)")):1: error: "))
        #expect(!elsewhere.standardOutput.contains(Self.root))
    }

    @Test func renderPutsTheCallSitesInTooltipsRelativeToTheSourceRoot() async throws {
        let path = try await StrangerRecording.file()
        let result = try await BuiltProduct.coordlens.runAsync(["render", path, "--grace", "0.3", "-o", "-", "--format", "svg", "--source-root", Self.root])
        #expect(result.status == 0, "\(result.standardError)")
        let svg = try SVGElement.parse(Data(result.standardOutput.utf8))
        let tooltip = svg.element(id: "c5")?.descendants.first { $0.name == "a" }?.attributes["xlink:title"]
        #expect(tooltip?.contains("retained: still a child of ProfileCoordinator#4") == true, "\(tooltip ?? "no tooltip")")
        #expect(
            tooltip?.contains("added at Tests/CommandLineTests/StrangerApp.swift:\(StrangerApp.line(of: "addChild(settings)")) in openSettingsAndSwipeDown()")
                == true)
        #expect(tooltip?.contains("bound at Tests/CommandLineTests/StrangerApp.swift:\(StrangerApp.line(of: "tracer.bind(settings, to: screen)"))") == true)
    }

    @Test func aPathThatNamesAnotherFileIsIgnored() async throws {
        // A base class that forwards file and line but not filePath sends its own path: the #fileID wins.
        let stream = """
            {"event":"session","v":1,"app":"Shop","run":"r"}
            {"seq":1,"t":0,"event":"add","id":1,"type":"App","file":"Shop/App.swift","line":3,"path":"/src/Shop/Base.swift"}
            {"seq":2,"t":0.1,"event":"add","id":2,"type":"Checkout","parent":1,"file":"Shop/Home.swift","line":9,"path":"/src/Sources/Shop/Home.swift"}
            {"seq":3,"t":1.0,"event":"dismiss","id":2,"file":"Shop/Home.swift","line":12,"function":"close()"}
            {"seq":4,"t":5.0,"event":"end"}

            """
        let result = try await BuiltProduct.coordlens.runAsync(["check", "-", "--format", "json", "--source-root", "/src"], input: stream)
        #expect(result.standardOutput.contains(#""added":{"file":"Shop/App.swift","line":3,"function":null}"#))
        #expect(result.standardOutput.contains(#""added":{"file":"Sources/Shop/Home.swift","line":9,"function":null}"#))
        #expect(result.standardOutput.contains(#""dismissed":{"file":"Shop/Home.swift","line":12,"function":"close()"}"#))
    }

    /// Every output that names a file keeps the build machine's checkout out of it when the source root lies elsewhere
    /// (a recording made on one machine, checked on another), and a shared report keeps it out without a root at all.
    @Test func noOutputNamesAPathOutsideTheSourceRoot() async throws {
        let path = try await StrangerRecording.file()
        let elsewhere = ["--grace", "0.3", "--source-root", "/nowhere"]
        for format in ["text", "json", "gcc", "github", "sarif", "junit"] {
            let result = try await BuiltProduct.coordlens.runAsync(["check", path, "--format", format] + elsewhere)
            #expect(result.status == 1, "\(format): \(result.standardError)")
            #expect(result.standardOutput.contains("StrangerApp.swift"), "\(format) still names the file")
            #expect(!result.standardOutput.contains(Self.root), "check --format \(format) names the build machine's path")
        }
        for format in ["svg", "dot", "json", "html"] {
            let result = try await BuiltProduct.coordlens.runAsync(["render", path, "-o", "-", "--format", format] + elsewhere)
            #expect(result.status == 0, "\(format): \(result.standardError)")
            #expect(!result.standardOutput.contains(Self.root), "render --format \(format) names the build machine's path")
        }
        let report = try await BuiltProduct.coordlens.runAsync(["render", path, "-o", "-", "--format", "html", "--grace", "0.3"])
        #expect(report.status == 0)
        #expect(report.standardOutput.contains("StrangerApp.swift"))
        #expect(!report.standardOutput.contains(Self.root), "report.html without --source-root carries no full path")
        let rooted = try await BuiltProduct.coordlens.runAsync(["render", path, "-o", "-", "--format", "html", "--grace", "0.3", "--source-root", Self.root])
        #expect(rooted.standardOutput.contains("Tests/CommandLineTests/StrangerApp.swift"))
        #expect(!rooted.standardOutput.contains(Self.root + "/"))
        let asked = try await BuiltProduct.coordlens.runAsync(["render", path, "-o", "-", "--format", "html", "--grace", "0.3", "--full-paths"])
        #expect(asked.standardOutput.contains(Self.root), "--full-paths keeps them")
    }
}
