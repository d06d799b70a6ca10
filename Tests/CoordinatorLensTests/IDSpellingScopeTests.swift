import CoordinatorLens
import Foundation
import Testing

/// String ids the live server reads are held by scopes and freed with the last of them; ids read from files or
/// written in code are kept for good. Each test spells its own ids (a UUID in each), as tests run side by side and
/// share the one table.
@Suite struct IDSpellingScopeTests {
    private static func unique(_ name: String) -> String { "\(name)-\(UUID().uuidString)" }

    private static func inUse(_ spelling: String) -> Bool { CoordinatorID(existingText: spelling) != nil }

    /// A session of `ids` string-id coordinators under one root, read through a reader whose scope is `scope`.
    private static func read(ids: [String], run: String, scope: IDSpellingScope?) -> [(EventRecord, String)] {
        var text = #"{"event":"session","v":1,"app":"Shop","run":"\#(run)"}"# + "\n"
        for (index, id) in ids.enumerated() {
            let parent = index == 0 ? "" : #","parent":"\#(ids[0])""#
            text += #"{"seq":\#(index + 1),"t":\#(index),"event":"add","id":"\#(id)","type":"Flow"\#(parent)}"# + "\n"
        }
        var reader = StreamReader()
        reader.idScope = scope
        // Decoded on a second thread as well, as a large chunk is: its interner must hold them too.
        reader.concurrentRegionBytes = 0
        var records: [(EventRecord, String)] = []
        Array(text.utf8).withUnsafeBytes { bytes in
            reader.consume(bytes) { item, _ in
                if case .record(let record, let run) = item { records.append((record, run)) }
            }
        }
        reader.finish { item, _ in
            if case .record(let record, let run) = item { records.append((record, run)) }
        }
        #expect(reader.regionsDecodedElsewhere > 0, "the second thread's interner was not exercised")
        return records
    }

    @Test func aScopedSpellingGoesWithItsScopeAndKeepsItsNumberWhileHeld() {
        let spelling = Self.unique("checkout")
        var scope: IDSpellingScope? = IDSpellingScope()
        let id = CoordinatorID(text: spelling, heldBy: scope!)
        #expect(id.text == spelling)
        #expect(CoordinatorID(existingText: spelling) == id, "a lookup finds the id in use")
        #expect(CoordinatorID(text: spelling, heldBy: IDSpellingScope()) == id, "equal spellings, equal ids, while in use")
        scope = nil
        #expect(!Self.inUse(spelling), "freed with its scope")
        #expect(id.text != spelling && id.text?.contains("released") == true, "an id kept past its scope says so: \(id.text ?? "nil")")
        let again = CoordinatorID(text: spelling, heldBy: IDSpellingScope())
        #expect(again != id, "a number is never given twice: the old id cannot read the new spelling")
    }

    @Test func aSpellingHeldByTwoScopesStaysUntilBothGo() {
        let spelling = Self.unique("shared")
        var first: IDSpellingScope? = IDSpellingScope()
        var second: IDSpellingScope? = IDSpellingScope()
        let id = CoordinatorID(text: spelling, heldBy: first!)
        second!.hold(id)
        first = nil
        #expect(Self.inUse(spelling) && id.text == spelling)
        second = nil
        #expect(!Self.inUse(spelling))
    }

    @Test func unscopedSpellingsAreKeptForGoodWhateverScopesHeldThem() {
        let spelling = Self.unique("literal")
        var scope: IDSpellingScope? = IDSpellingScope()
        let scoped = CoordinatorID(text: spelling, heldBy: scope!)
        let kept = CoordinatorID(text: spelling)
        #expect(kept == scoped)
        scope = nil
        #expect(Self.inUse(spelling) && kept.text == spelling, "a file's or the code's ids are kept for the process")
    }

    @Test func lookingUpInternsNothing() {
        let spelling = Self.unique("asked")
        #expect(CoordinatorID(existingText: spelling) == nil)
        #expect(CoordinatorID(existingText: spelling) == nil, "the first lookup did not add it")
    }

    /// The live server's chain: the connection's reader holds ids from decoding, the session's tree from applying;
    /// snapshots and replays of the tree hold them after the tree is gone; the last of them frees them.
    @Test func aTreesSpellingsLiveAsLongAsItOrAnySnapshotOrReplayOfIt() throws {
        let ids = (0..<2_000).map { Self.unique("flow\($0)") }
        var connection: IDSpellingScope? = IDSpellingScope()
        let records = Self.read(ids: ids, run: "live", scope: connection)
        #expect(records.count == ids.count)
        var tree: SessionTree? = SessionTree(header: SessionHeader(app: "Shop", run: "live"))
        tree!.idScope = IDSpellingScope()
        var log: SessionLog? = SessionLog(header: SessionHeader(app: "Shop", run: "live"))
        log!.idScope = tree!.idScope
        for (record, _) in records {
            tree!.apply(record)
            log!.entries.append(.record(record))
        }
        connection = nil
        #expect(ids.count(where: Self.inUse) == ids.count, "the tree holds what the connection read")

        var snapshot: Snapshot? = tree!.snapshot()
        tree = nil
        #expect(ids.count(where: Self.inUse) == ids.count, "a snapshot holds its tree's spellings")
        #expect(snapshot!.nodes.map(\.id.text) == ids, "every spelling read back")
        snapshot = nil

        var replayed: Snapshot? = try log!.snapshot(until: .seq(10))
        log = nil
        #expect(replayed!.nodes.compactMap(\.id.text) == Array(ids.prefix(10)))
        #expect(ids.count(where: Self.inUse) == ids.count, "a replay of the log holds the whole session's spellings while it lives")
        replayed = nil
        #expect(ids.count(where: Self.inUse) == 0, "freed with the last value that held them")
    }

    @Test func aReaderWithoutAScopeKeepsItsIdsForGood() {
        let ids = (0..<3).map { Self.unique("file\($0)") }
        _ = Self.read(ids: ids, run: "file", scope: nil)
        #expect(ids.count(where: Self.inUse) == ids.count)
    }
}
