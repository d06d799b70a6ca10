import CoordinatorLens
import CoordinatorLensServer
import Foundation
import Testing

/// The live server's rules, called directly: no sockets, no sleeps, the clock passed in.
@Suite struct SessionTableTests {
    private let t0 = Date(timeIntervalSinceReferenceDate: 1_000_000)

    private func header(_ run: String) -> SessionHeader { SessionHeader(app: "Table", run: run) }

    private func record(_ seq: Int, _ event: Event, at time: Double = 0) -> EventRecord {
        EventRecord(seq: seq, time: time, event: event, line: seq + 1)
    }

    @Test func aSecondConnectionOfOneRunSharesItsTreeWithAWarning() {
        var table = SessionTable()
        #expect(table.open(header("a"), now: t0).opening == .opened)
        #expect(table.open(header("a"), now: t0).opening == .shared)
        #expect(table.entries["a"]?.connections == 2)
        #expect(table.entries["a"]?.tree.warnings.contains { $0.message.contains("second connection") } == true)
        #expect(table.order == ["a"])
    }

    @Test func aReconnectContinuesTheRunWithoutAWarning() {
        var table = SessionTable()
        _ = table.open(header("a"), now: t0)
        table.apply(record(1, .add(id: 1, type: "Root", parent: nil)), run: "a", now: t0)
        table.close(run: "a", now: t0)
        #expect(table.open(header("a"), now: t0).opening == .opened)
        #expect(table.entries["a"]?.tree.coordinatorCount == 1)
        #expect(table.entries["a"]?.tree.warnings.isEmpty == true)
    }

    @Test func aFullTableEvictsTheDisconnectedRunQuietTheLongestAndRefusesWhenAllAreConnected() {
        var table = SessionTable(maxSessions: 2)
        _ = table.open(header("old"), now: t0)
        _ = table.open(header("older"), now: t0)
        table.close(run: "older", now: t0.addingTimeInterval(1))
        table.close(run: "old", now: t0.addingTimeInterval(2))

        let opened = table.open(header("new"), now: t0.addingTimeInterval(3))
        #expect(opened.opening == .opened)
        #expect(opened.evicted == "older")
        #expect(table.takeEvictedForRoom().map(\.run) == ["older"])
        #expect(table.takeEvictedForRoom().isEmpty)
        #expect(table.order == ["old", "new"])

        _ = table.open(header("old"), now: t0.addingTimeInterval(4))
        #expect(table.open(header("third"), now: t0.addingTimeInterval(5)).opening == .full)
        #expect(table.entries["third"] == nil)
    }

    @Test func idleRunsWithoutAConnectionAreEvictedAndReportedGone() {
        var table = SessionTable()
        _ = table.open(header("quiet"), now: t0)
        _ = table.open(header("connected"), now: t0)
        table.close(run: "quiet", now: t0)
        _ = table.takeChangedRuns()

        #expect(table.evict(idleFor: 60, now: t0.addingTimeInterval(59)).isEmpty)
        // A run whose picture is still being drawn is spared until a later pass.
        #expect(table.evict(idleFor: 60, sparing: ["quiet"], now: t0.addingTimeInterval(60)).isEmpty)
        #expect(table.evict(idleFor: 60, now: t0.addingTimeInterval(60)).map(\.run) == ["quiet"])
        let (changed, gone) = table.takeChangedRuns()
        #expect(changed.isEmpty)
        #expect(gone == ["quiet"])
        #expect(table.order == ["connected"])
    }

    @Test func aRunCountsAsFinishedOnceWhenItHasEndedAndLostEveryConnection() {
        var table = SessionTable()
        _ = table.open(header("a"), now: t0)
        _ = table.open(header("a"), now: t0)
        table.apply(record(1, .end), run: "a", now: t0)
        table.close(run: "a", now: t0)
        #expect(table.finished == 0)
        table.close(run: "a", now: t0)
        #expect(table.finished == 1)
        _ = table.open(header("a"), now: t0)
        table.close(run: "a", now: t0)
        #expect(table.finished == 1)
    }

    @Test func newCoordinatorsPastTheLimitAreCountedAndSaidOnce() {
        var table = SessionTable(maxCoordinators: 2)
        _ = table.open(header("a"), now: t0)
        for id in 1...5 {
            table.apply(record(id, .add(id: CoordinatorID(id), type: "Screen", parent: nil)), run: "a", now: t0)
        }
        // A known id still moves: only new ones are refused.
        table.apply(record(6, .dismiss(id: 2)), run: "a", now: t0)
        let entry = table.entries["a"]!
        #expect(entry.tree.coordinatorCount == 2)
        #expect(entry.refusedCoordinators == 3)
        #expect(entry.tree.warnings.filter { $0.message.contains("--max-coordinators") }.count == 1)
        #expect(entry.tree.warnings.first { $0.message.contains("--max-coordinators") }?.line == 4)
        #expect(entry.tree[2]?.dismissedAt != nil)
    }

    @Test func unreadableLinesAreKeptUpToTheLimitThenOnlyCounted() {
        var table = SessionTable(maxKeptMalformed: 2)
        _ = table.open(header("a"), now: t0)
        for line in 1...5 {
            table.reportUnreadable(Diagnostic(line: line, message: "not JSON"), run: "a")
        }
        let entry = table.entries["a"]!
        #expect(entry.unreadable == 5)
        #expect(entry.tree.warnings.map(\.line) == [1, 2, 3])
        #expect(entry.tree.warnings.last?.message.contains("more than 2 unreadable lines") == true)
        #expect(entry.history.count == 3)
    }

    @Test func historyStopsAtItsLimitAndSaysSo() {
        var table = SessionTable(maxHistoryEvents: 3)
        _ = table.open(header("a"), now: t0)
        for id in 1...5 {
            table.apply(record(id, .add(id: CoordinatorID(id), type: "Screen", parent: nil)), run: "a", now: t0)
        }
        let entry = table.entries["a"]!
        #expect(entry.history.count == 3)
        #expect(entry.historyFull)
        #expect(entry.tree.coordinatorCount == 5)
    }

    @Test func runsAreHandedOutForJudgementInTheOrderTheyChangedOncePerChange() {
        var table = SessionTable()
        _ = table.open(header("first"), now: t0)
        _ = table.open(header("second"), now: t0)
        #expect(table.takeDue(now: t0).map(\.run) == ["first", "second"])
        #expect(table.takeDue(now: t0).isEmpty)

        table.apply(record(1, .add(id: 1, type: "Root", parent: nil)), run: "second", now: t0)
        table.apply(record(2, .end), run: "second", now: t0)
        table.apply(record(1, .add(id: 1, type: "Root", parent: nil)), run: "first", now: t0)
        #expect(table.takeDue(now: t0).map(\.run) == ["second", "first"])
        table.close(run: "first", now: t0)
        table.report(Diagnostic(line: 0, message: "note"), run: "second")
        #expect(table.takeDue(now: t0).map(\.run) == ["first", "second"])
    }

    @Test func aRecheckHandsAnUnchangedRunOutAgainWhenItFallsDue() {
        var table = SessionTable()
        _ = table.open(header("a"), now: t0)
        _ = table.takeDue(now: t0)
        table.recheck(run: "a", at: t0.addingTimeInterval(2))
        #expect(table.takeDue(now: t0.addingTimeInterval(1.9)).isEmpty)
        #expect(table.takeDue(now: t0.addingTimeInterval(2)).map(\.run) == ["a"])
        #expect(table.takeDue(now: t0.addingTimeInterval(3)).isEmpty)
    }

    @Test func aLiveRunWhoseJudgementWasCostlyRestsFourTimesAsLong() throws {
        var table = SessionTable()
        _ = table.open(header("big"), now: t0)
        let due = try #require(table.takeDue(now: t0).first)
        let cost = 0.1
        table.keep(judgement(of: due.entry, cost: cost), run: "big")

        table.apply(record(1, .add(id: 1, type: "Root", parent: nil)), run: "big", now: t0)
        #expect(table.takeDue(now: t0.addingTimeInterval(0.39)).isEmpty)
        #expect(table.takeDue(now: t0.addingTimeInterval(0.39), resting: false).map(\.run) == ["big"])

        table.apply(record(2, .end), run: "big", now: t0)
        #expect(table.takeDue(now: t0.addingTimeInterval(0.1)).map(\.run) == ["big"], "an ended run never rests")
    }

    private func judgement(of entry: SessionTable.Entry, cost: Double = 0, deadline: Date? = nil) -> SessionTable.Judgement {
        SessionTable.Judgement(
            id: 1, version: entry.version, grace: 2, at: t0, live: live(entry), cost: cost, deadline: deadline, tree: entry.tree)
    }

    @Test func aJudgementOfAnOlderVersionDoesNotStandForTheRun() throws {
        var table = SessionTable()
        _ = table.open(header("a"), now: t0)
        let due = try #require(table.takeDue(now: t0).first)
        table.apply(record(1, .add(id: 1, type: "Root", parent: nil)), run: "a", now: t0)
        table.keep(judgement(of: due.entry), run: "a")
        let entry = table.entries["a"]!
        #expect(entry.judged?.stands(for: entry, now: t0) == false)
    }

    @Test func aJudgementStandsUntilTheRunChangesOrItsDeadlinePasses() throws {
        var table = SessionTable()
        _ = table.open(header("a"), now: t0)
        let entry = try #require(table.takeDue(now: t0).first).entry
        let quiet = judgement(of: entry)
        #expect(quiet.stands(for: entry, now: t0.addingTimeInterval(3_600)), "with nothing pending, time alone changes no verdict")
        let pending = judgement(of: entry, deadline: t0.addingTimeInterval(2))
        #expect(pending.stands(for: entry, now: t0.addingTimeInterval(1.99)))
        #expect(!pending.stands(for: entry, now: t0.addingTimeInterval(2)), "at its deadline a pending coordinator turns retained")

        table.apply(record(1, .end), run: "a", now: t0)
        #expect(!quiet.stands(for: table.entries["a"]!, now: t0))
    }

    @Test func aPendingCoordinatorIsRecheckedWhenItsGraceRunsOut() throws {
        var tree = SessionTree(header: header("a"))
        tree.apply(record(1, .add(id: 1, type: "Root", parent: nil), at: 0))
        tree.apply(record(2, .add(id: 2, type: "Modal", parent: 1), at: 1))
        tree.apply(record(3, .dismiss(id: 2), at: 1.5))
        let snapshot = tree.snapshot(at: 2, grace: 2, limits: [])
        #expect(snapshot.nodes.contains { $0.verdict == .pending })
        let live = LiveSnapshot(snapshot: snapshot, version: 1, connected: true, events: 3, unreadableLines: 0)
        let at = try #require(SessionTable.recheckTime(of: live, grace: 2, now: t0))
        // Dismissed at 1.5, judged at 2: retained at 3.5, 1.5 s from now (and a hair after, to be past it).
        #expect(abs(at.timeIntervalSince(t0) - 1.51) < 1e-9)

        var ended = tree
        ended.apply(record(4, .end, at: 2))
        let endedLive = LiveSnapshot(
            snapshot: ended.snapshot(at: 2, grace: 2, limits: []), version: 2, connected: true, events: 4, unreadableLines: 0)
        #expect(SessionTable.recheckTime(of: endedLive, grace: 2, now: t0) == nil)
    }

    @Test func aLoadedRecordingIsFrozenAndNotLoadedTwice() {
        var table = SessionTable(maxSessions: 1)
        var log = SessionLog(header: header("rec"))
        log.entries = [.record(record(1, .add(id: 1, type: "Root", parent: nil))), .record(record(2, .end))]
        let tree = (try? log.replay(until: .end))?.tree ?? SessionTree(header: log.header)
        let first = table.load(log, replayed: tree, now: t0)
        let second = table.load(log, replayed: tree, now: t0)
        #expect(first)
        #expect(!second)
        let entry = table.entries["rec"]!
        #expect(entry.frozen)
        #expect(entry.history.count == 2)
        #expect(table.takeChangedRuns().changed == ["rec"])
        #expect(table.finished == 0, "a recording is no stream that finished here")
    }

    private func live(_ entry: SessionTable.Entry) -> LiveSnapshot {
        LiveSnapshot(
            snapshot: entry.tree.snapshot(at: entry.tree.lastTime, grace: 2, limits: []), version: entry.version, connected: true,
            events: entry.tree.eventCount, unreadableLines: 0)
    }
}
