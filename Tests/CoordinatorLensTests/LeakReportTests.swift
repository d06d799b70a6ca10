import CoordinatorLens
import Foundation
import Testing

@Suite struct LeakReportTests {
    /// A 10,000-deep chain in which every coordinator leaks: each path keeps its root and last steps, so the report
    /// grows with the number of leaks, not with leaks times depth.
    @Test func deepChainOfLeaksPrintsShortPaths() throws {
        var tree = SessionTree(header: SessionHeader(app: "Deep", run: "r"))
        let depth = 10_000
        var seq = 0
        func apply(_ event: Event, at time: Double) {
            seq += 1
            tree.apply(EventRecord(seq: seq, time: time, event: event))
        }
        for id in 1...depth { apply(.add(id: CoordinatorID(id), type: "Step", parent: id == 1 ? nil : CoordinatorID(id - 1)), at: 0) }
        for id in 2...depth { apply(.dismiss(id: CoordinatorID(id)), at: 1) }
        let snapshot = tree.snapshot(at: 10, grace: 2)
        #expect(snapshot.retained.count == depth - 1)
        let text = LeakReport.text(for: SessionCheck(source: "", snapshot: snapshot, atEnd: true))
        #expect(text.utf8.count < 600 * depth, "\(text.utf8.count) bytes")
        #expect(text.contains("path: Step#1 › … 9,975 more › Step#9977 › "))
        #expect(text.contains("path: Step#1 › Step#2\n"))
    }

    /// Crowds of living siblings are hints: past the first few, one line sums them up, so the leaks stay in sight;
    /// asked for, every one is printed.
    @Test func manyCrowdNotesAreSummedUpAfterTheFirstFew() throws {
        var tree = SessionTree(header: SessionHeader(app: "Crowded", run: "r"))
        var seq = 0
        func apply(_ event: Event, at time: Double = 0) {
            seq += 1
            tree.apply(EventRecord(seq: seq, time: time, event: event))
        }
        apply(.add(id: 1, type: "App", parent: nil))
        // 40 screens, each with 8 living pages of one type bound to screens of their own: 40 crowds.
        var next = 2
        for screen in 0..<40 {
            let parent = next
            apply(.add(id: CoordinatorID(parent), type: "Screen\(screen % 4)", parent: 1))
            next += 1
            for _ in 0..<8 {
                apply(.add(id: CoordinatorID(next), type: "Page\(screen % 3)Coordinator", parent: CoordinatorID(parent)))
                apply(.bind(id: CoordinatorID(next), screen: "PageViewController"))
                next += 1
            }
        }
        apply(.add(id: CoordinatorID(next), type: "Leaky", parent: 1))
        apply(.dismiss(id: CoordinatorID(next)), at: 1)
        let check = SessionCheck(source: "", snapshot: tree.snapshot(at: 10, grace: 2), atEnd: true)
        let few = LeakReport.text(for: check)
        let lines = few.split(separator: "\n")
        #expect(lines.filter { $0.contains("alive side by side") }.count == LeakReport.notesShown)
        let summary = "  note: 35 more crowds of living siblings like these (280 coordinators of 3 types under 35 parents); --notes all lists them"
        #expect(lines.contains(Substring(summary)), "\(few)")
        #expect(lines.contains { $0.hasPrefix("  RETAINED Leaky#") })
        let all = LeakReport.text(for: check, allNotes: true)
        #expect(all.split(separator: "\n").filter { $0.contains("alive side by side") }.count == 40)
        #expect(!all.contains("more crowds"))
    }

    /// The report prints a parent's path once and every leak under it from that; each printed path must still be the
    /// snapshot's own, through detached and orphaned coordinators, a parent the snapshot lacks, and a cycle that only
    /// a hand-edited snapshot can hold.
    @Test func sharedParentPathsPrintEachLeaksOwnPath() throws {
        var tree = SessionTree(header: SessionHeader(app: "Wide", run: "r"))
        var seq = 0
        func apply(_ event: Event) {
            seq += 1
            tree.apply(EventRecord(seq: seq, time: 0, event: event))
        }
        apply(.add(id: 1, type: "App", parent: nil))
        for id in 2...400 {
            // Levels of 3, each coordinator under one a little above it; every fifth one leaks by dismissal.
            apply(.add(id: CoordinatorID(id), type: "Level\(id % 4)", parent: CoordinatorID(max(1, (id + 1) / 3))))
            if id % 5 == 0 { apply(.dismiss(id: CoordinatorID(id))) }
        }
        apply(.remove(id: 20, parent: nil))
        apply(.deinitialized(id: 7))
        let built = tree.snapshot(at: 10, grace: 2)
        var json = try JSONSerialization.jsonObject(with: JSONEncoder().encode(built)) as! [String: Any]
        var nodes = json["nodes"] as! [[String: Any]]
        // 30 and 31 hold each other; 32 hangs under an id no node has.
        nodes[29]["parent"] = 31
        nodes[30]["parent"] = 30
        nodes[31]["parent"] = 9_999
        json["nodes"] = nodes
        let edited = try JSONDecoder().decode(Snapshot.self, from: JSONSerialization.data(withJSONObject: json))
        for snapshot in [built, edited] {
            #expect(snapshot.retained.count > 70)
            let text = LeakReport.text(for: SessionCheck(source: "", snapshot: snapshot, atEnd: true))
            let printed = text.split(separator: "\n").filter { $0.hasPrefix("    path: ") }.map { $0.dropFirst(10) }
            // Cause by cause, each leak once.
            let expected = snapshot.causeGroups().flatMap(\.allIDs).map { id in
                snapshot.path(to: id).map { "\($0.type)#\($0.id)" }.joined(separator: " › ")
            }
            #expect(Set(snapshot.causeGroups().flatMap(\.allIDs)) == Set(snapshot.retained.map(\.id)))
            #expect(printed.map(String.init) == expected)
        }
    }

    /// Text from a recording can never start a report line of its own.
    @Test func controlCharactersInNamesStayOnTheirLine() {
        var tree = SessionTree(header: SessionHeader(app: "App\nRETAINED Fake#1: forged", run: "r\u{1B}[2J"))
        tree.apply(EventRecord(seq: 1, time: 0, event: .add(id: 1, type: "Root\r\nforged", parent: nil)))
        tree.apply(EventRecord(seq: 2, time: 0, event: .add(id: 2, type: "Leak\nRETAINED X#9", parent: 1)))
        tree.apply(EventRecord(seq: 3, time: 0, event: .dismiss(id: 2)))
        let text = LeakReport.text(for: SessionCheck(source: "", snapshot: tree.snapshot(at: 5, grace: 2), atEnd: true))
        #expect(!text.split(separator: "\n").contains { $0.hasPrefix("RETAINED") || $0.hasPrefix("forged") })
        #expect(text.contains(#"RETAINED Leak\nRETAINED X#9#2: still a child of Root\r\nforged#1"#))
        #expect(text.contains(#"r\u{1B}[2J"#))
    }
}
