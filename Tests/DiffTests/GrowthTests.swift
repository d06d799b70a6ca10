import CoordinatorLens
import Testing

@Suite("Growth across repeats")
struct GrowthTests {
    /// App holds a list; each iteration opens a detail (left retained when `leakDetail`), a banner that piles up
    /// for the first `bannerIterations` iterations only, and a share sheet that finishes properly; then marks "loop".
    private static func run(iterations: Int, leakDetail: Bool = true, bannerIterations: Int = 2) -> RunRecording {
        var run = RunRecording(run: "repeat")
        let app = run.add("AppCoordinator", under: nil)
        let list = run.add("ListCoordinator", under: app)
        for iteration in 0..<iterations {
            let detail = run.add("DetailCoordinator", under: list)
            if leakDetail { run.dismiss(detail) } else { run.finish(detail, from: list) }
            if iteration < bannerIterations { run.add("BannerCoordinator", under: list) }
            let share = run.add("ShareCoordinator", under: list)
            run.finish(share, from: list)
            run.mark("loop")
            run.mark("other")
        }
        return run
    }

    @Test("a type whose live count grows at every mark is reported with its counts per iteration")
    func growing() throws {
        let report = try GrowthReport(Self.run(iterations: 4).log, label: "loop")
        #expect(report.marks.count == 4)
        #expect(report.growing == [GrowthReport.TypeCounts(type: "DetailCoordinator", counts: [1, 2, 3, 4])])
        let banner = try #require(report.types.first { $0.type == "BannerCoordinator" })
        #expect(banner.counts == [1, 2, 2, 2])
        #expect(!banner.growsAtEveryMark)
        #expect(report.types.first { $0.type == "AppCoordinator" }?.counts == [1, 1, 1, 1])
        #expect(!report.types.contains { $0.type == "ShareCoordinator" }, "never live at a mark")

        let lines = report.text.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("Shop run repeat: live coordinators at 4 marks \"loop\" (at ") == true)
        #expect(lines.contains("  DetailCoordinator  1 → 2 → 3 → 4  (+1 per iteration)"))
        #expect(lines.last == "1 type grows at every mark")
    }

    @Test("nothing grows when every iteration cleans up")
    func flat() throws {
        let report = try GrowthReport(Self.run(iterations: 3, leakDetail: false, bannerIterations: 0).log, label: "loop")
        #expect(report.growing.isEmpty)
        #expect(report.text.hasSuffix("\nno type grows at every mark"))
    }

    @Test("growth needs at least two marks with the label")
    func tooFewMarks() {
        #expect(throws: GrowthError.self) { try GrowthReport(Self.run(iterations: 1).log, label: "loop") }
        do {
            _ = try GrowthReport(Self.run(iterations: 3).log, label: "missing")
            Issue.record("a missing label must throw")
        } catch {
            #expect(error.message.contains("no mark \"missing\""))
            #expect(error.message.contains("its marks: loop, other"))
        }
    }

    @Test("control characters in types, app, run and label are shown as escapes, never as new lines")
    func controlCharacters() throws {
        var log = SessionLog(header: SessionHeader(app: "App\u{1B}[2J", run: "r\nforged"))
        func record(_ event: Event) {
            let seq = log.entries.count + 1
            log.entries.append(.record(EventRecord(seq: seq, time: Double(seq), event: event, line: seq + 1)))
        }
        record(.add(id: 1, type: "Root", parent: nil))
        for id in 2...4 {
            record(.add(id: CoordinatorID(id), type: "Evil\nforged\u{1B}]0;title\u{7}", parent: 1))
            record(.mark(label: "loop\r\n"))
        }
        let report = try GrowthReport(log, label: "loop\r\n")
        #expect(report.growing.map(\.counts) == [[1, 2, 3]])
        let text = report.text
        #expect(text.split(separator: "\n").count == 3)
        #expect(!text.unicodeScalars.contains { $0 != "\n" && $0.properties.generalCategory == .control })
        #expect(text.contains(#"  Evil\nforged\u{1B}]0;title\u{7}  1 → 2 → 3"#))
        #expect(text.hasPrefix(#"App\u{1B}[2J run r\nforged: live coordinators at 3 marks "loop\r\n""#))
    }
}
