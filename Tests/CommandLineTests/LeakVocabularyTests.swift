import Foundation
import TestSupport
import Testing

/// One leak told the same way by every command (the same situation, the same fingerprint): a child the app added
/// before its parent, which a view model rather than its parent holds, as real `coordlens` processes print it; and
/// a recording that stops without `end()`, which every output says once.
@Suite struct LeakVocabularyTests {
    static let fingerprint = "AppCoordinator/NavigationTabCoordinator/HomeScreenCoordinator/SettingsScreenCoordinator (still-child)"
    static let words = "attached under HomeScreenCoordinator#4, held by SettingsScreenViewModel.coordinator"

    /// The Matrix client's order (Home#4 is its stack's root before the tab #5 that shows it is added), Settings#6
    /// left done; `held` adds the retainer search's line: its view model holds it, not Home.
    static func matrix(run: String, held: Bool) -> String {
        var lines = [#"{"event":"session","v":1,"app":"Matrix","run":"\#(run)"}"#]
        lines.append(#"{"seq":1,"t":0,"event":"add","id":1,"type":"AppCoordinator"}"#)
        lines.append(#"{"seq":2,"t":0.1,"event":"add","id":4,"type":"HomeScreenCoordinator","parent":5}"#)
        lines.append(#"{"seq":3,"t":0.1,"event":"add","id":6,"type":"SettingsScreenCoordinator","parent":4}"#)
        lines.append(#"{"seq":4,"t":0.2,"event":"add","id":5,"type":"NavigationTabCoordinator","parent":1}"#)
        lines.append(#"{"seq":5,"t":1,"event":"dismiss","id":6}"#)
        let label = #"HomeScreenCoordinator\u001f4\u001fviewModel\u001fproperty\u001eSettingsScreenViewModel\u001f\u001fcoordinator\u001fproperty"#
        lines.append(
            held
                ? #"{"seq":6,"t":4,"event":"held","id":6,"via":"live","count":12,"label":"\#(label)"}"#
                : #"{"seq":6,"t":4,"event":"heartbeat"}"#)
        lines.append(#"{"seq":7,"t":4,"event":"end"}"#)
        return lines.joined(separator: "\n") + "\n"
    }

    static func folder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("coordlens-vocabulary-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    static func write(_ text: String, _ name: String, in folder: URL) throws -> String {
        let url = folder.appendingPathComponent(name)
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    @Test func checkDiffBaselineAndJSONGiveOneLeakTheSameWordsAndFingerprint() async throws {
        let folder = try Self.folder()
        let searched = try Self.write(Self.matrix(run: "searched", held: true), "searched.ndjson", in: folder)
        let unsearched = try Self.write(Self.matrix(run: "unsearched", held: false), "unsearched.ndjson", in: folder)

        let text = try await BuiltProduct.coordlens.runAsync(["check", searched])
        #expect(text.status == 1)
        #expect(text.standardOutput.contains("  RETAINED SettingsScreenCoordinator#6: \(Self.words)\n"), "\(text.standardOutput)")
        #expect(
            text.standardOutput.contains(
                "    path: AppCoordinator#1 › NavigationTabCoordinator#5 › HomeScreenCoordinator#4 › SettingsScreenCoordinator#6"))
        #expect(!text.standardOutput.contains("unknown parent") && !text.standardOutput.contains("warnings:"), "the parent came")

        let json = try await BuiltProduct.coordlens.runAsync(["check", searched, "--format", "json"])
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
        let session = try #require((document["sessions"] as? [[String: Any]])?.first)
        let coordinators = try #require(session["coordinators"] as? [[String: Any]])
        let leak = try #require(coordinators.first { $0["verdict"] as? String == "retained" })
        #expect(leak["reason"] as? String == Self.words)
        // Its path's types and its kind: the fingerprint the other commands print.
        let types = (leak["path"] as? [Int] ?? []).compactMap { id in coordinators.first { $0["id"] as? Int == id }?["type"] as? String }
        #expect(types.joined(separator: "/") + " (\(leak["reasonKind"] as? String ?? ""))" == Self.fingerprint)
        #expect((session["warnings"] as? [Any])?.isEmpty == true)

        let baseline = try await BuiltProduct.coordlens.runAsync(["baseline", searched])
        #expect(baseline.standardOutput.contains("{\"fingerprint\": \"\(Self.fingerprint)\""), "\(baseline.standardOutput)")

        // Who holds it is in one run and not the other (a run without the search): the same leak, still leaking.
        let diff = try await BuiltProduct.coordlens.runAsync(["diff", unsearched, searched])
        #expect(diff.status == 0, "no new leak: \(diff.standardOutput)")
        #expect(diff.standardOutput.contains("still leaking:\n  · \(Self.fingerprint)"), "\(diff.standardOutput)")
        #expect(diff.standardOutput.contains("SettingsScreenCoordinator") && diff.standardOutput.contains("retained (still-child), still leaking"))
    }

    @Test func aBaselineWrittenWithTheOldWordsStillMatches() async throws {
        let folder = try Self.folder()
        let searched = try Self.write(Self.matrix(run: "searched", held: true), "searched.ndjson", in: folder)
        // As the baseline of a run whose report said "still a child of HomeScreenCoordinator#4" reads.
        let types = Self.fingerprint.dropLast(" (still-child)".count).split(separator: "/").map { "\"\($0)\"" }.joined(separator: ", ")
        let old = """
            {
              "coordlensBaseline": 1,
              "leaks": [
                {"fingerprint": "\(Self.fingerprint)", "types": [\(types)], "omittedSteps": 0, "reason": "still-child", "count": 1}
              ],
              "paths": []
            }

            """
        let path = try Self.write(old, "baseline.json", in: folder)
        let check = try await BuiltProduct.coordlens.runAsync(["check", searched, "--baseline", path])
        #expect(check.status == 0, "known, not new: \(check.standardOutput)")
        #expect(check.standardOutput.contains("  KNOWN SettingsScreenCoordinator#6: \(Self.words)\n"), "\(check.standardOutput)")
        #expect(check.standardOutput.contains("0 new, 0 grown, 1 known"), "\(check.standardOutput)")
    }

    /// Done at 0.1 s, and the app killed: its last line a heartbeat at 2.19 s, past the grace.
    static let killed =
        [
            #"{"event":"session","v":1,"app":"Killed","run":"k1"}"#,
            #"{"seq":1,"t":0,"event":"add","id":1,"type":"AppCoordinator"}"#,
            #"{"seq":2,"t":0.05,"event":"add","id":2,"type":"SettingsCoordinator","parent":1}"#,
            #"{"seq":3,"t":0.1,"event":"dismiss","id":2}"#,
            #"{"seq":4,"t":2.19,"event":"heartbeat"}"#,
        ].joined(separator: "\n") + "\n"

    static let stopped = "the app stopped without end() (last event at 2.2 s): no retainer search ran"

    @Test func aRecordingThatStopsWithoutEndSaysSoOnceInEveryOutput() async throws {
        let folder = try Self.folder()
        let path = try Self.write(Self.killed, "killed.ndjson", in: folder)

        let text = try await BuiltProduct.coordlens.runAsync(["check", path])
        #expect(text.status == 1, "still a leak: the exit code is the same")
        #expect(text.standardOutput.components(separatedBy: Self.stopped).count - 1 == 1, "\(text.standardOutput)")

        let json = try await BuiltProduct.coordlens.runAsync(["check", path, "--format", "json"])
        #expect(json.status == 1)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
        let session = try #require((document["sessions"] as? [[String: Any]])?.first)
        #expect(session["stoppedWithoutEnd"] as? String == Self.stopped)
        #expect(session["ended"] as? Bool == false)

        for format in ["gcc", "github", "sarif", "junit"] {
            let result = try await BuiltProduct.coordlens.runAsync(["check", path, "--format", format])
            #expect(result.status == 1, "\(format)")
            #expect(result.standardOutput.components(separatedBy: "the app stopped without end()").count - 1 == 1, "\(format): \(result.standardOutput)")
        }

        let page = try await BuiltProduct.coordlens.runAsync(["render", path, "-o", "-", "--format", "html"])
        #expect(page.status == 0, "\(page.standardError)")
        #expect(page.standardOutput.contains(#""stoppedWithoutEnd":"\#(Self.stopped)""#), "the page's model carries it")
        #expect(page.standardError.contains(Self.stopped))

        let summary = try await BuiltProduct.coordlens.runAsync(["check", "--summary", path])
        #expect(summary.standardOutput.contains("1 session stopped without end(): no retainer search ran in it"), "\(summary.standardOutput)")

        // An ended run, or a cut (not the recording's end), says nothing of it.
        let ended = try Self.write(Self.killed + #"{"seq":5,"t":2.2,"event":"end"}"# + "\n", "ended.ndjson", in: folder)
        for arguments in [["check", ended], ["check", path, "--at-seq", "4"], ["check", ended, "--format", "json"]] {
            let result = try await BuiltProduct.coordlens.runAsync(arguments)
            #expect(result.status == 1)
            #expect(!result.standardOutput.contains("without end"), "\(arguments): \(result.standardOutput)")
        }
    }
}
