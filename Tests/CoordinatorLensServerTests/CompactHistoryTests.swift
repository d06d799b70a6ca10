import CoordinatorLens
import Foundation
import Testing

@testable import CoordinatorLensServer

/// A finished session's lines, encoded and read back: exactly the entries that went in, whatever their kind.
@Suite struct CompactHistoryTests {
    private static func record(_ seq: Int, _ event: Event, at time: Double, site: CallSite? = nil, line: Int? = nil) -> SessionLog.Entry {
        .record(EventRecord(seq: seq, time: time, event: event, site: site, line: line ?? seq + 1))
    }

    @Test func everyKindOfEntryReadsBackExactly() {
        let site = CallSite(file: "App/Flow.swift", line: 12, function: "start()", path: "/src/App/Flow.swift")
        let other = CallSite(file: "App/Other.swift", line: 3)
        let entries: [SessionLog.Entry] = [
            Self.record(1, .add(id: 1, type: "AppCoordinator", parent: nil), at: 0, site: site),
            Self.record(2, .add(id: 2, type: "Child", parent: 1), at: 0.000_001, site: site),
            Self.record(3, .add(id: -7, type: "Negative", parent: -1), at: 0.1),
            Self.record(4, .add(id: 0, type: "Zero", parent: 0), at: 0.25),
            Self.record(5, .bind(id: 2, screen: "ChildViewController"), at: 1.5, site: other),
            Self.record(6, .dismiss(id: 2, via: .screenLeft), at: 2),
            Self.record(7, .dismiss(id: 2, via: .screenFreed), at: 2),
            Self.record(8, .dismiss(id: 2), at: 2.000_000_5),
            Self.record(9, .remove(id: 2, parent: 1), at: 3, site: site),
            Self.record(10, .remove(id: 2, parent: nil), at: 3),
            Self.record(11, .deinitialized(id: 2), at: 1e-9),
            Self.record(12, .mark(label: "checkout"), at: 4),
            Self.record(13, .dropped(count: 120), at: 4),
            Self.record(14, .heartbeat, at: 5),
            Self.record(20, .add(id: CoordinatorID(text: "string-id"), type: "Named", parent: 1), at: 5.5),
            Self.record(21, .expect(AliveLimit(type: "Child", maximum: 2)), at: 6),
            Self.record(22, .unknown(kind: "future"), at: 6),
            .malformed(Diagnostic(line: 30, message: "malformed JSON at byte 3")),
            .unkept(count: 12),
            Self.record(9, .mark(label: "back in time"), at: 3, line: 2),
            Self.record(Int.max, .add(id: CoordinatorID(Int.max), type: "Large", parent: CoordinatorID(Int.min)), at: 1e12, line: 40),
            Self.record(23, .end, at: -0.0),
        ]
        let compact = CompactHistory(entries)
        #expect(compact.count == entries.count)
        #expect(compact.entries() == entries)
    }

    @Test func aHookSessionTakesAFewBytesAnEvent() {
        let site = CallSite(file: "App/Flow.swift", line: 12, function: "start()")
        var entries: [SessionLog.Entry] = []
        var seq = 0
        for id in 1...20_000 {
            seq += 1
            let add = Event.add(id: CoordinatorID(id), type: "Flow\(id % 40)Coordinator", parent: id == 1 ? nil : 1)
            entries.append(Self.record(seq, add, at: Double(seq) / 1e4, site: site))
            seq += 1
            entries.append(Self.record(seq, .deinitialized(id: CoordinatorID(id)), at: Double(seq) / 1e4))
        }
        let compact = CompactHistory(entries)
        #expect(compact.entries() == entries)
        #expect(compact.size < 12 * entries.count, "\(compact.size) bytes for \(entries.count) events")
    }

    /// A session that ended and lost its connection is handed out for compaction once; its log reads the same after,
    /// and a line that comes after all turns it back into chunks.
    @Test func aFinishedSessionIsCompactedOnceAndReadsTheSame() {
        let t0 = Date(timeIntervalSinceReferenceDate: 1_000_000)
        var table = SessionTable()
        _ = table.open(SessionHeader(app: "Table", run: "a"), now: t0)
        table.apply(EventRecord(seq: 1, time: 0, event: .add(id: 1, type: "Root", parent: nil), line: 2), run: "a", now: t0)
        #expect(table.takeCompactable().isEmpty, "a connected session is not compacted")
        table.apply(EventRecord(seq: 2, time: 1, event: .end, line: 3), run: "a", now: t0)
        table.close(run: "a", now: t0)
        let due = table.takeCompactable()
        #expect(due.map(\.run) == ["a"])
        #expect(table.takeCompactable().isEmpty, "handed out once")
        let before = due[0].history.log(header: SessionHeader(app: "Table", run: "a"), notes: [], idScope: nil).entries
        table.keepCompacted(due[0].history.compact(), run: "a")
        #expect(table.entries["a"]?.history.isCompact == true)
        let after = table.entries["a"]!.history.log(header: SessionHeader(app: "Table", run: "a"), notes: [], idScope: nil).entries
        #expect(after == before)

        table.apply(EventRecord(seq: 3, time: 2, event: .mark(label: "late"), line: 4), run: "a", now: t0)
        #expect(table.entries["a"]?.history.isCompact == false)
        #expect(table.entries["a"]?.history.count == 3)
    }
}
