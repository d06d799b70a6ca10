import Foundation
import TestSupport
import Testing

/// `check --summary` over a generated folder of recordings whose leaks are known per fingerprint.
struct SummaryCommandTests {
    /// Recording `index`: even ones leak two SettingsCoordinators (still-child), every third a DetailCoordinator
    /// (detached), every fifth a ProfileCoordinator (outlived-parent); odd ones use string ids; number 6 holds two
    /// sessions. Everything else is freed.
    static func recording(_ index: Int) -> String {
        var lines: [String] = []
        for session in 0..<(index == 6 ? 2 : 1) {
            lines.append(#"{"event":"session","v":1,"app":"Shop","run":"run-\#(index)-\#(session)"}"#)
            var seq = 0
            var now = 0.0
            func id(_ number: Int) -> String { index % 2 == 1 ? "\"s\(number)\"" : "\(number)" }
            func event(_ time: Double, _ body: String) {
                seq += 1
                now = max(now, time)
                lines.append("{\"seq\":\(seq),\"t\":\(now),\(body)}")
            }
            func add(_ number: Int, _ type: String, under parent: Int?, line: Int) {
                let above = parent.map { ",\"parent\":\(id($0))" } ?? ""
                event(0.1, "\"event\":\"add\",\"id\":\(id(number)),\"type\":\"\(type)\"\(above),\"file\":\"Shop/\(type).swift\",\"line\":\(line)")
            }
            add(1, "AppCoordinator", under: nil, line: 1)
            if index % 2 == 0 {
                add(2, "HomeCoordinator", under: 1, line: 10)
                add(3, "SettingsCoordinator", under: 2, line: 20)
                add(4, "SettingsCoordinator", under: 2, line: 20)
                event(1, "\"event\":\"dismiss\",\"id\":\(id(3))")
                event(1, "\"event\":\"dismiss\",\"id\":\(id(4))")
            }
            if index % 3 == 0 {
                add(5, "DetailCoordinator", under: 1, line: 30)
                event(1, "\"event\":\"remove\",\"id\":\(id(5)),\"parent\":\(id(1))")
            }
            if index % 5 == 0 {
                add(6, "MenuCoordinator", under: 1, line: 40)
                add(7, "ProfileCoordinator", under: 6, line: 50)
                event(1, "\"event\":\"remove\",\"id\":\(id(6)),\"parent\":\(id(1))")
                event(1.1, "\"event\":\"deinit\",\"id\":\(id(6))")
            }
            add(8, "DoneCoordinator", under: 1, line: 60)
            event(1, "\"event\":\"remove\",\"id\":\(id(8)),\"parent\":\(id(1))")
            event(1.1, "\"event\":\"deinit\",\"id\":\(id(8))")
            event(10, "\"event\":\"end\"")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// 30 recordings in two subfolders, a text file that is not a recording, and optionally two unusable ones.
    static func folder(withBadOnes: Bool) throws -> String {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("coordlens-summary-\(UUID())")
        for index in 0..<30 {
            let folder = root.appendingPathComponent(index < 15 ? "a" : "b/nested")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let name = String(format: "rec-%02d.ndjson", index)
            try Self.recording(index).write(to: folder.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        try "not a recording".write(to: root.appendingPathComponent("a/notes.txt"), atomically: true, encoding: .utf8)
        if withBadOnes {
            try "hello\nworld\n".write(to: root.appendingPathComponent("b/garbage.ndjson"), atomically: true, encoding: .utf8)
            try "".write(to: root.appendingPathComponent("b/empty.ndjson"), atomically: true, encoding: .utf8)
        }
        return root.path
    }

    @Test func groupsAGeneratedFolderByFingerprintWithKnownCounts() async throws {
        let root = try Self.folder(withBadOnes: false)
        let result = try await BuiltProduct.coordlens.runAsync(["check", "--summary", root, "--format", "json"])
        #expect(result.status == 1, "\(result.standardError)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        #expect(object["recordings"] as? Int == 30)
        #expect(object["sessions"] as? Int == 31)
        #expect(object["retained"] as? Int == 32 + 11 + 6)
        let groups = try #require(object["groups"] as? [[String: Any]])
        #expect(
            groups.map { $0["fingerprint"] as? String } == [
                "AppCoordinator/HomeCoordinator/SettingsCoordinator (still-child)",
                "AppCoordinator/DetailCoordinator (detached)",
                "AppCoordinator/MenuCoordinator/ProfileCoordinator (outlived-parent)",
            ])
        #expect(groups.map { $0["runs"] as? Int } == [15, 10, 6])
        #expect(groups.map { $0["sessions"] as? Int } == [16, 11, 6])
        #expect(groups.map { $0["count"] as? Int } == [32, 11, 6])
        let first = groups.map { (($0["first"] as? [String: Any])?["source"] as? String)?.replacingOccurrences(of: root + "/", with: "") }
        let last = groups.map { (($0["last"] as? [String: Any])?["source"] as? String)?.replacingOccurrences(of: root + "/", with: "") }
        #expect(first == ["a/rec-00.ndjson", "a/rec-00.ndjson", "a/rec-00.ndjson"])
        #expect(last == ["b/nested/rec-28.ndjson", "b/nested/rec-27.ndjson", "b/nested/rec-25.ndjson"])
        let example = try #require(groups.first?["example"] as? [String: Any])
        #expect(example["id"] as? Int == 3)
        #expect((example["added"] as? [String: Any])?["file"] as? String == "Shop/SettingsCoordinator.swift")
        #expect((example["added"] as? [String: Any])?["line"] as? Int == 20)
        #expect((object["unusable"] as? [Any])?.isEmpty == true)
        // The causes (no retainer search in these recordings: what the tree says), across the recordings.
        let causes = try #require(object["causes"] as? [[String: Any]])
        #expect(
            causes.map { $0["cause"] as? String } == [
                "SettingsCoordinator still a child of HomeCoordinator", "DetailCoordinator detached from AppCoordinator and held elsewhere",
                "ProfileCoordinator outlived its parent MenuCoordinator",
            ])
        #expect(causes.map { $0["count"] as? Int } == [32, 11, 6] && causes.map { $0["runs"] as? Int } == [15, 10, 6])
        #expect(groups.first?["causes"] as? [String] == ["SettingsCoordinator still a child of HomeCoordinator"])

        let text = try await BuiltProduct.coordlens.runAsync(["check", "--summary", root])
        #expect(text.status == 1)
        #expect(
            text.standardOutput.hasPrefix(
                "causes:\n  SettingsCoordinator still a child of HomeCoordinator keeps 32 coordinators in 15 of 30 recordings\n"),
            "\(text.standardOutput)")
        #expect(
            text.standardOutput.contains(
                "1. AppCoordinator/HomeCoordinator/SettingsCoordinator (still-child)\n   cause: SettingsCoordinator still a child of HomeCoordinator\n"
                    + "   in 15 of 30 recordings, 16 of 31 sessions; 32 retained"),
            "\(text.standardOutput)")
        #expect(text.standardOutput.contains("e.g. SettingsCoordinator#3 in \(root)/a/rec-00.ndjson (run run-0-0), added at Shop/SettingsCoordinator.swift:20"))
        #expect(text.standardOutput.hasSuffix("3 leaks by fingerprint: 49 retained, 0 undecided in 30 recordings (31 sessions)\n"))

        let gcc = try await BuiltProduct.coordlens.runAsync(["check", "--summary", root, "--format", "gcc"])
        #expect(
            gcc.standardOutput.split(separator: "\n").first?.hasPrefix(
                "Shop/SettingsCoordinator.swift:20:1: error: SettingsCoordinator retained in 15 of 30 recordings (32 coordinators, 16 sessions") == true,
            "\(gcc.standardOutput)")
        let github = try await BuiltProduct.coordlens.runAsync(["check", "--summary", root, "--format", "github"])
        #expect(
            github.standardOutput.hasPrefix("::error file=Shop/SettingsCoordinator.swift,line=20,title=SettingsCoordinator retained in 15 recordings::"),
            "\(github.standardOutput)")
    }

    @Test func unusableRecordingsExitTwoNamingFileAndLineWhileTheRestAreCounted() async throws {
        let root = try Self.folder(withBadOnes: true)
        let result = try await BuiltProduct.coordlens.runAsync(["check", "--summary", root, "--format", "json"])
        #expect(result.status == 2)
        #expect(
            result.standardError.contains(
                "\(root)/b/garbage.ndjson:1: no session line and no event to read: all 2 lines failed to read as wire format v1: malformed JSON at byte 1"),
            "\(result.standardError)")
        #expect(result.standardError.contains("\(root)/b/empty.ndjson: no session line and no event to read: the input is empty"), "\(result.standardError)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        #expect(object["recordings"] as? Int == 30)
        #expect((object["unusable"] as? [[String: Any]])?.map { $0["line"] as? Int } == [0, 1])
    }

    @Test func aCleanFolderExitsZeroAndSarifIsRefused() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("coordlens-summary-\(UUID())").path
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        try Self.recording(1).write(toFile: root + "/clean.ndjson", atomically: true, encoding: .utf8)
        let clean = try await BuiltProduct.coordlens.runAsync(["check", "--summary", root])
        #expect(clean.status == 0, "\(clean.standardOutput)\(clean.standardError)")
        #expect(clean.standardOutput == "0 leaks by fingerprint: 0 retained, 0 undecided in 1 recording (1 session)\n")
        let sarif = try await BuiltProduct.coordlens.runAsync(["check", "--summary", root, "--format", "sarif"])
        #expect(sarif.status == 2)
        #expect(sarif.standardError.contains("--summary prints text, json, gcc or github"))
        let empty = try await BuiltProduct.coordlens.runAsync(["check", "--summary", root + "/nothing-here"])
        #expect(empty.status == 2)
    }

    /// docs/CI.md's summary excerpt is what the built `coordlens` prints over the samples, line for line.
    @Test func ciDocExcerptIsRealOutput() async throws {
        let ciDoc = try String(contentsOf: PackageRoot.url.appendingPathComponent("docs/CI.md"), encoding: .utf8)
        let section = try #require(ciDoc.components(separatedBy: "\n## Leak summaries across many runs\n").dropFirst().first)
        let block = try #require(section.components(separatedBy: "```console\n").dropFirst().first?.components(separatedBy: "\n```").first)
        let lines = block.split(separator: "\n").map(String.init)
        #expect(lines.first == "$ coordlens check --summary samples")
        let result = try await BuiltProduct.coordlens.runAsync(["check", "--summary", "samples"], in: PackageRoot.url)
        #expect(result.status == 1)
        let real = Set(result.standardOutput.split(separator: "\n").map(String.init))
        for line in lines.dropFirst() where line != "…" {
            #expect(real.contains(line), "\(line)")
        }
    }
}
