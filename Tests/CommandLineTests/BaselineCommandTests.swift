import Foundation
import TestSupport
import Testing

/// `coordlens baseline` and `check --baseline` (and `--summary --baseline`) as real processes, every CI format read
/// back by the consumer it is for, as `CIFormatTests` does.
@Suite(.serialized) struct BaselineCommandTests {
    static let leaking = PackageRoot.path("samples/deliveroo-traditional/stream.ndjson")
    static let before = PackageRoot.path("samples/checkout-fix/before.ndjson")
    static let after = PackageRoot.path("samples/checkout-fix/after.ndjson")

    /// App `Shop`, run `run`: `settings` SettingsCoordinators left under Home (still-child), and one detached
    /// coordinator per name in `extra`.
    static func recording(run: String, settings: Int = 1, extra: [String] = []) -> String {
        var lines = [#"{"event":"session","v":1,"app":"Shop","run":"\#(run)"}"#]
        var seq = 0
        func event(_ time: Double, _ body: String) {
            seq += 1
            lines.append("{\"seq\":\(seq),\"t\":\(time),\(body)}")
        }
        event(0.1, #""event":"add","id":1,"type":"AppCoordinator","file":"Shop/App.swift","line":1"#)
        event(0.1, #""event":"add","id":2,"type":"HomeCoordinator","parent":1,"file":"Shop/App.swift","line":5"#)
        for number in 0..<settings {
            event(0.2, "\"event\":\"add\",\"id\":\(3 + number),\"type\":\"SettingsCoordinator\",\"parent\":2,\"file\":\"Shop/Home.swift\",\"line\":20")
            event(1, "\"event\":\"dismiss\",\"id\":\(3 + number)")
        }
        for (offset, type) in extra.enumerated() {
            event(1, "\"event\":\"add\",\"id\":\(50 + offset),\"type\":\"\(type)\",\"parent\":1,\"file\":\"Shop/\(type).swift\",\"line\":\(30 + offset)")
            event(1.5, "\"event\":\"remove\",\"id\":\(50 + offset),\"parent\":1")
        }
        event(10, #""event":"end""#)
        return lines.joined(separator: "\n") + "\n"
    }

    static func folder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("coordlens-baseline-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    static func write(_ text: String, _ name: String, in folder: URL) throws -> String {
        let url = folder.appendingPathComponent(name)
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    /// The baseline file is small, sorted and one leak per line, with the most per run as its count.
    @Test func baselineListsEachFingerprintOnceWithItsCount() async throws {
        let folder = try Self.folder()
        let path = folder.appendingPathComponent("coordlens-baseline.json").path
        let made = try await BuiltProduct.coordlens.runAsync(["baseline", Self.leaking, "-o", path])
        #expect(made.status == 0, "\(made.standardError)")
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let entries = text.split(separator: "\n").filter { $0.contains("\"fingerprint\"") }
        #expect(entries.count == 3)
        #expect(entries.map { $0.contains("CheckoutCoordinator") } == [true, false, false], "sorted by fingerprint")
        #expect(entries[0].contains("\"count\": 1") && entries[1].contains("\"count\": 3") && entries[2].contains("\"count\": 3"))
        let document = try #require(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(document["coordlensBaseline"] as? Int == 1)
        #expect(try await BuiltProduct.coordlens.runAsync(["baseline", Self.leaking]).standardOutput == text, "standard output holds the same")
    }

    /// The run the baseline was made from passes in every format, its leaks listed as known (warnings, not errors).
    @Test func theSameRunPassesInEveryFormat() async throws {
        let folder = try Self.folder()
        let baseline = folder.appendingPathComponent("baseline.json").path
        #expect(try await BuiltProduct.coordlens.runAsync(["baseline", Self.leaking, "-o", baseline]).status == 0)
        let check = ["check", Self.leaking, "--baseline", baseline]

        let text = try await BuiltProduct.coordlens.runAsync(check)
        #expect(text.status == 0, "\(text.standardOutput)")
        #expect(text.standardOutput.components(separatedBy: "  KNOWN ").count - 1 == 7)
        #expect(!text.standardOutput.contains("RETAINED"))
        #expect(text.standardOutput.contains("7 retained (7 known from the baseline) in 1 session"))
        #expect(text.standardOutput.contains("baseline \(baseline): 0 new, 0 grown, 3 known, 0 fixed"))

        let gcc = try await BuiltProduct.coordlens.runAsync(check + ["--format", "gcc"])
        #expect(gcc.status == 0)
        let diagnostics = CIFormatTests.gccDiagnostics(gcc.standardOutput)
        #expect(!diagnostics.isEmpty && diagnostics.allSatisfy { $0.severity != "error" }, "\(gcc.standardOutput)")
        #expect(diagnostics.filter { $0.severity == "warning" }.allSatisfy { $0.message.contains("(known: in the baseline)") })

        let github = try await BuiltProduct.coordlens.runAsync(check + ["--format", "github"])
        #expect(github.status == 0)
        let commands = github.standardOutput.split(separator: "\n").compactMap(CIFormatTests.workflowCommand)
        #expect(!commands.isEmpty && commands.allSatisfy { $0.command == "warning" }, "\(github.standardOutput)")

        let sarif = try await BuiltProduct.coordlens.runAsync(check + ["--format", "sarif"])
        #expect(sarif.status == 0)
        let log = try await CIFormatTests.validatedSARIF(sarif.standardOutput)
        #expect(log.results.count == 7)
        #expect(log.results.allSatisfy { $0.level == "warning" && $0.message.contains("(known: in the baseline)") })

        let junit = try await BuiltProduct.coordlens.runAsync(check + ["--format", "junit"])
        #expect(junit.status == 0)
        let suites = try await CIFormatTests.parsedJUnit(junit.standardOutput)
        #expect(suites.count == 1 && suites[0].failures == 0 && suites[0].errors == 0)
        let outs = suites[0].cases.compactMap(\.out).joined(separator: "\n")
        #expect(outs.components(separatedBy: "(known: in the baseline)").count - 1 == 7, "\(outs)")
    }

    /// A run with one more fingerprint, and one with more of a known one, fail in every format: the new leaks are
    /// errors, the known ones warnings.
    @Test func oneMoreFingerprintOrAGrownCountFailsInEveryFormat() async throws {
        let folder = try Self.folder()
        let base = try Self.write(Self.recording(run: "base"), "base.ndjson", in: folder)
        let more = try Self.write(Self.recording(run: "more", extra: ["PaymentCoordinator"]), "more.ndjson", in: folder)
        let grown = try Self.write(Self.recording(run: "grown", settings: 3), "grown.ndjson", in: folder)
        let baseline = folder.appendingPathComponent("baseline.json").path
        #expect(try await BuiltProduct.coordlens.runAsync(["baseline", base, "-o", baseline]).status == 0)
        #expect(try await BuiltProduct.coordlens.runAsync(["check", base, "--baseline", baseline]).status == 0)

        for (run, errors, warnings) in [(more, 1, 1), (grown, 2, 1)] {
            let check = ["check", run, "--baseline", baseline]
            let text = try await BuiltProduct.coordlens.runAsync(check)
            #expect(text.status == 1, "\(text.standardOutput)")
            let gcc = CIFormatTests.gccDiagnostics(try await BuiltProduct.coordlens.runAsync(check + ["--format", "gcc"]).standardOutput)
            #expect(gcc.filter { $0.severity == "error" }.count == (run == grown ? 1 : errors), "grown ones at one line are one line")
            #expect(gcc.filter { $0.severity == "warning" }.count == warnings)
            let github = try await BuiltProduct.coordlens.runAsync(check + ["--format", "github"])
            #expect(github.status == 1)
            let commands = github.standardOutput.split(separator: "\n").compactMap(CIFormatTests.workflowCommand)
            #expect(commands.filter { $0.command == "error" }.count == (run == grown ? 1 : errors))
            #expect(commands.filter { $0.command == "warning" }.count == warnings)
            let sarif = try await BuiltProduct.coordlens.runAsync(check + ["--format", "sarif"])
            #expect(sarif.status == 1)
            let log = try await CIFormatTests.validatedSARIF(sarif.standardOutput)
            #expect(log.results.filter { $0.level == "error" }.count == errors)
            #expect(log.results.filter { $0.level == "warning" }.count == warnings)
            let junit = try await BuiltProduct.coordlens.runAsync(check + ["--format", "junit"])
            #expect(junit.status == 1)
            let suites = try await CIFormatTests.parsedJUnit(junit.standardOutput)
            #expect(suites.first?.failures == errors)
        }
        let json = try await BuiltProduct.coordlens.runAsync(["check", more, "--baseline", baseline, "--format", "json"])
        #expect(json.status == 1)
        let document = try #require(JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
        #expect(document["retained"] as? Int == 2 && document["failing"] as? Int == 1)
        let notes = try #require(((document["sessions"] as? [[String: Any]])?.first?["notes"]) as? [[String: Any]])
        #expect(notes.map { $0["known"] as? Bool } == [true, false])
        #expect(notes.map { $0["note"] as? String } == ["known: in the baseline", "new: not in the baseline"])
        let moreText = try await BuiltProduct.coordlens.runAsync(["check", more, "--baseline", baseline])
        #expect(moreText.standardOutput.contains("  NEW   AppCoordinator/PaymentCoordinator (detached) ×1"), "\(moreText.standardOutput)")
        #expect(moreText.standardOutput.contains("  RETAINED PaymentCoordinator#50"))
        #expect(moreText.standardOutput.contains("  KNOWN SettingsCoordinator#3"))
        let grownText = try await BuiltProduct.coordlens.runAsync(["check", grown, "--baseline", baseline])
        #expect(
            grownText.standardOutput.contains("  GROWN AppCoordinator/HomeCoordinator/SettingsCoordinator (still-child) ×3, 1 in the baseline"),
            "\(grownText.standardOutput)")
        #expect(grownText.standardOutput.contains("new: 3 in this run, 1 in the baseline"))
    }

    /// A baseline entry no run has any more is reported as fixed, to be removed; the run passes.
    @Test func aFixedLeakIsReported() async throws {
        let folder = try Self.folder()
        let baseline = folder.appendingPathComponent("baseline.json").path
        #expect(try await BuiltProduct.coordlens.runAsync(["baseline", Self.before, "-o", baseline]).status == 0)
        let result = try await BuiltProduct.coordlens.runAsync(["check", Self.after, "--baseline", baseline])
        #expect(result.status == 0)
        #expect(
            result.standardOutput.contains(
                "  fixed AppCoordinator/MainTabCoordinator/CheckoutCoordinator (still-child) (1 in the baseline): no longer occurs; remove it from the baseline"
            ), "\(result.standardOutput)")
        let summary = try await BuiltProduct.coordlens.runAsync(["check", "--summary", Self.after, "--baseline", baseline, "--format", "json"])
        #expect(summary.status == 0)
        let document = try #require(JSONSerialization.jsonObject(with: Data(summary.standardOutput.utf8)) as? [String: Any])
        #expect(
            (document["fixed"] as? [[String: Any]])?.first?["fingerprint"] as? String == "AppCoordinator/MainTabCoordinator/CheckoutCoordinator (still-child)")
    }

    /// `--summary --baseline`: known groups are warnings and do not fail; a new one is an error and fails.
    @Test func summaryTakesABaseline() async throws {
        let folder = try Self.folder()
        let nights = folder.appendingPathComponent("nights")
        try FileManager.default.createDirectory(at: nights, withIntermediateDirectories: true)
        for night in 0..<3 { _ = try Self.write(Self.recording(run: "n\(night)"), "n\(night).ndjson", in: nights) }
        let baseline = folder.appendingPathComponent("baseline.json").path
        #expect(try await BuiltProduct.coordlens.runAsync(["baseline", nights.path, "-o", baseline]).status == 0)
        let known = try await BuiltProduct.coordlens.runAsync(["check", "--summary", nights.path, "--baseline", baseline, "--format", "gcc"])
        #expect(known.status == 0, "\(known.standardOutput)")
        #expect(CIFormatTests.gccDiagnostics(known.standardOutput).map(\.severity) == ["warning"])

        _ = try Self.write(Self.recording(run: "n3", extra: ["MapCoordinator"]), "n3.ndjson", in: nights)
        let text = try await BuiltProduct.coordlens.runAsync(["check", "--summary", nights.path, "--baseline", baseline])
        #expect(text.status == 1)
        #expect(text.standardOutput.contains("AppCoordinator/MapCoordinator (detached) (new: not in the baseline)"), "\(text.standardOutput)")
        #expect(text.standardOutput.contains("AppCoordinator/HomeCoordinator/SettingsCoordinator (still-child) (known: in the baseline)"))
        let github = try await BuiltProduct.coordlens.runAsync(["check", "--summary", nights.path, "--baseline", baseline, "--format", "github"])
        let commands = github.standardOutput.split(separator: "\n").compactMap(CIFormatTests.workflowCommand)
        #expect(commands.map(\.command).sorted() == ["error", "warning"])
    }

    /// A broken baseline is bad input (exit 2) that names its file and line.
    @Test func aBrokenBaselineNamesTheLine() async throws {
        let folder = try Self.folder()
        let notJSON = try Self.write("{\n  \"coordlensBaseline\": 1,\n  \"leaks\": [\n    {\"types\": [\"A\"] \"count\": 1}\n  ]\n}\n", "a.json", in: folder)
        let broken = try await BuiltProduct.coordlens.runAsync(["check", Self.leaking, "--baseline", notJSON])
        #expect(broken.status == 2)
        #expect(broken.standardError.contains("\(notJSON):4: not JSON"), "\(broken.standardError)")

        let badReason = try Self.write(
            "{\n  \"coordlensBaseline\": 1,\n  \"leaks\": [\n    {\"types\": [\"A\"], \"reason\": \"still-child\", \"count\": 1},\n    {\"types\": [\"B\"], \"reason\": \"stuck\", \"count\": 1}\n  ]\n}\n",
            "b.json", in: folder
        )
        let reason = try await BuiltProduct.coordlens.runAsync(["check", Self.leaking, "--baseline", badReason])
        #expect(reason.status == 2)
        #expect(reason.standardError.contains("\(badReason):5: unknown reason stuck"), "\(reason.standardError)")

        let missing = try await BuiltProduct.coordlens.runAsync(["check", Self.leaking, "--baseline", folder.appendingPathComponent("none.json").path])
        #expect(missing.status == 2)
        #expect(missing.standardError.contains("cannot read baseline"))
    }
}
