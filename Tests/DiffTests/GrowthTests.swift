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

    /// Growth walks the log through the same replay as snapshots and cuts: a log read for its end only is refused the
    /// way a cut on it is, naming why, rather than reported as having no marks.
    @Test("growth replays as cuts do: a log kept for its end only is refused with the reason")
    func growthSharesTheReplay() throws {
        let ndjson = Self.run(iterations: 3).ndjson
        let endOnly = Recording(bytes: Array(ndjson.utf8), keeping: .treeAtEnd).sessions[0]
        #expect(throws: GrowthError.self) { try GrowthReport(endOnly, label: "loop") }
        do {
            _ = try GrowthReport(endOnly, label: "loop")
        } catch {
            #expect(error.message == "run repeat was read for its end only: this needs a recording that keeps every line")
        }
        #expect(throws: CutError.self) { try endOnly.snapshot(until: .mark("loop")) }
        let full = try GrowthReport(Self.run(iterations: 3).log, label: "loop")
        #expect(full.growing.map(\.counts) == [[1, 2, 3]])
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

    @Test("counts kept event by event match a recount of the whole tree at every mark, whatever the stream does")
    func countsMatchARecount() throws {
        var run = RunRecording(run: "messy")
        let app = run.add("App", under: nil)
        var alive: [Int] = []
        for iteration in 0..<60 {
            let flow = run.add(iteration % 3 == 0 ? "Detail" : "Share", under: app)
            alive.append(flow)
            if iteration % 4 == 1 { run.move(flow, "Detail", under: alive[0]) }  // a move is no new coordinator
            if iteration % 5 == 2 { run.deinitialize(alive.removeFirst()) }
            if iteration % 7 == 3 {
                run.deinitialize(flow)
                run.deinitialize(flow)
            }  // a second deinit is ignored
            if iteration % 11 == 4 { run.move(flow, "Share", under: app) }  // an add of a deinited id is refused
            if iteration % 13 == 5 { run.deinitialize(9_999) }  // an unknown id changes nothing
            run.mark("loop")
        }
        let log = run.log
        let report = try GrowthReport(log, label: "loop")
        var tree = SessionTree(header: log.header)
        var recounts: [[String: Int]] = []
        for entry in log.entries {
            guard case .record(let record) = entry else { continue }
            tree.apply(record)
            guard record.event == .mark(label: "loop") else { continue }
            var counts: [String: Int] = [:]
            for coordinator in tree.all where coordinator.deinitAt == nil { counts[coordinator.type, default: 0] += 1 }
            recounts.append(counts)
        }
        #expect(report.marks.count == 60)
        let types = Set(recounts.flatMap(\.keys)).sorted()
        #expect(report.types.map(\.type) == types)
        for counts in report.types {
            #expect(counts.counts == recounts.map { $0[counts.type, default: 0] }, "\(counts.type)")
        }
    }

    @Test("30,000 marks over as many live coordinators: linear, so this finishes in seconds even in a debug build")
    func manyMarks() throws {
        var run = RunRecording(run: "long")
        let app = run.add("App", under: nil)
        for _ in 0..<30_000 {
            run.add("Leaky", under: app)
            run.mark("loop")
        }
        let report = try GrowthReport(run.log, label: "loop")
        #expect(report.marks.count == 30_000)
        #expect(report.growing.map(\.type) == ["Leaky"])
        #expect(report.growing.first?.counts.last == 30_000)
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
