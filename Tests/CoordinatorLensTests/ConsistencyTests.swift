import CoordinatorLens
import Testing

@Suite struct ConsistencyTests {
    @Test func removeFromAParentThatDoesNotHoldItWarnsAndChangesNothing() {
        var script = Script()
        script.at(0, .add(id: 1, type: "App", parent: nil))
        script.at(0, .add(id: 2, type: "Other", parent: nil))
        script.at(0, .add(id: 3, type: "Flow", parent: 1))
        script.at(1, .remove(id: 3, parent: 2))
        let tree = script.tree()
        #expect(tree.diagnostics.map(\.line) == [5])
        #expect(tree.diagnostics.first?.message.contains("does not hold it") == true)
        #expect(tree[3]?.parent == 1)
        #expect(tree.snapshot(at: 10).verdict(3) == .alive)
    }

    @Test(arguments: [Event.dismiss(id: 9), .deinitialized(id: 9), .remove(id: 9, parent: 1), .bind(id: 9, screen: "S")])
    func eventsForUnknownIdsWarnWithTheirLine(_ event: Event) {
        var script = Script()
        script.at(0, .add(id: 1, type: "App", parent: nil))
        script.at(1, event)
        let tree = script.tree()
        #expect(tree.diagnostics == [Diagnostic(line: 3, message: "\(event.kindName) of unknown id 9")])
        #expect(tree.all.count == 1)
    }

    @Test func parentCyclesAreRefused() {
        var script = Script()
        script.at(0, .add(id: 1, type: "A", parent: nil))
        script.at(0, .add(id: 2, type: "B", parent: 1))
        script.at(0, .add(id: 3, type: "C", parent: 2))
        script.at(1, .add(id: 1, type: "A", parent: 3))
        script.at(1, .add(id: 4, type: "D", parent: 4))
        let tree = script.tree()
        #expect(tree.diagnostics.count == 2)
        #expect(tree.diagnostics[0].line == 5 && tree.diagnostics[0].message.contains("cycle"))
        #expect(tree.diagnostics[1].line == 6 && tree.diagnostics[1].message.contains("cycle"))
        #expect(tree.roots == [1])
        #expect(tree[1]?.parent == nil)
        #expect(tree[4] == nil)
    }

    /// A sits under C, which was removed from B, which sits under A: C's path goes through B, so that add would make
    /// every path in the loop start nowhere.
    @Test func aCycleThroughAFormerParentIsRefused() {
        var script = Script()
        script.at(0, .add(id: 1, type: "A", parent: nil))
        script.at(0, .add(id: 2, type: "B", parent: 1))
        script.at(0, .add(id: 3, type: "C", parent: 2))
        script.at(1, .remove(id: 3, parent: 2))
        script.at(2, .add(id: 1, type: "A", parent: 3))
        let tree = script.tree()
        #expect(tree.diagnostics.map(\.line) == [6])
        #expect(tree.diagnostics.first?.message == "moving A#1 under C#3 would make a parent cycle through C#3's former parent B#2: ignored")
        #expect(tree.roots == [1, 3])
        let snapshot = tree.snapshot(at: 10)
        for id: CoordinatorID in [1, 2, 3] {
            #expect(snapshot.path(to: id).first?.id == 1, "the path to \(id) starts at the root A")
        }
    }

    @Test func addOfAKnownIdMovesIt() {
        var script = Script()
        script.at(0, .add(id: 1, type: "A", parent: nil))
        script.at(0, .add(id: 2, type: "B", parent: nil))
        script.at(0, .add(id: 3, type: "C", parent: 1))
        script.at(1, .add(id: 3, type: "C", parent: 2))
        let tree = script.tree()
        #expect(tree.diagnostics.isEmpty)
        #expect(tree[1]?.children == [])
        #expect(tree[2]?.children == [3])
    }

    @Test func seqGapsAreReportedAndDroppedEventsExplainThem() {
        var tree = SessionTree(header: SessionHeader(app: "A", run: "r"))
        tree.apply(EventRecord(seq: 1, time: 0, event: .add(id: 1, type: "A", parent: nil), line: 2))
        tree.apply(EventRecord(seq: 4, time: 1, event: .mark(label: "x"), line: 3))
        tree.apply(EventRecord(seq: 8, time: 2, event: .dropped(count: 3), line: 4))
        tree.apply(EventRecord(seq: 9, time: 3, event: .dropped(count: 5), line: 5))
        tree.apply(EventRecord(seq: 9, time: 3, event: .unknown(kind: "teleport"), line: 6))
        #expect(tree.diagnostics.map(\.line) == [3, 4, 5, 6, 6])
        #expect(tree.diagnostics[0].message == "seq jumped from 1 to 4: 2 events lost")
        #expect(tree.diagnostics[1].message.contains("dropped 3 events"), "the gap the dropped event explains is reported once")
        #expect(tree.diagnostics[2].message.contains("dropped 5 events"))
        #expect(tree.diagnostics[3].message == "seq 9 out of order (after 9)")
        #expect(tree.diagnostics[4].message == "unknown event kind \"teleport\" ignored")
    }

    @Test func largeFanOutStaysConsistent() {
        var script = Script()
        script.at(0, .add(id: 1, type: "App", parent: nil))
        for id in 2...2_001 { script.at(0, .add(id: CoordinatorID(id), type: "Child", parent: 1)) }
        for id in stride(from: 2, through: 2_001, by: 2) { script.at(1, .remove(id: CoordinatorID(id), parent: 1)) }
        let tree = script.tree()
        #expect(tree[1]?.children.count == 1_000)
        #expect(tree.roots.count == 1_001)
        #expect(tree.diagnostics.isEmpty)
    }
}

/// The tree keeps its coordinators in chunks; across chunk boundaries it must read and write like an Array.
@Suite struct ChunkedArrayTests {
    @Test func readsAndWritesInPlaceLikeAnArray() {
        var chunked = ChunkedArray<[Int]>()
        var plain: [[Int]] = []
        for value in 0..<10_000 {
            chunked.append([value])
            plain.append([value])
            if value % 7 == 0 {
                let at = value / 3
                chunked[at].append(value)
                plain[at].append(value)
            }
        }
        #expect(chunked.count == plain.count && Array(chunked) == plain)
        #expect(chunked[4_095] == plain[4_095] && chunked[4_096] == plain[4_096] && chunked.last == plain.last)
        let copy = chunked
        chunked[5_000] = []
        #expect(copy[5_000] == [5_000] && chunked[5_000].isEmpty, "a copy keeps its own elements")
    }
}
