import CoordinatorLens
import Testing

/// Hostile and broken inputs: each is read in bounded memory, reported with its line, and the lines around it kept.
@Suite struct InputLimitTests {
    /// 22 lines, 1.6 KB: a chain whose ids roughly double (1023, 3071, 7167, …) and a last one of 2^62. Ids used to size
    /// an array, so this took 8.4 GB and a few more lines aborted `check`.
    static let sparseIDs: String = {
        var ids = [1_023]
        while ids.count < 20 { ids.append(2 * ids.last! + 1_025) }
        ids.append(1 << 62)
        var lines = [#"{"event":"session","v":1,"app":"Sparse","run":"r"}"#]
        for (index, id) in ids.enumerated() {
            let parent = index == 0 ? "" : #","parent":\#(ids[index - 1])"#
            lines.append(#"{"seq":\#(index + 1),"t":\#(index),"event":"add","id":\#(id),"type":"C\#(index)"\#(parent)}"#)
        }
        return lines.joined(separator: "\n") + "\n"
    }()

    @Test func idsThatDoubleFromLineToLineAreReadAsAnyOthers() throws {
        #expect(Self.sparseIDs.utf8.count < 1_600)
        let snapshot = try Recording(bytes: Array(Self.sparseIDs.utf8)).sessions[0].snapshot()
        #expect(snapshot.warnings.isEmpty, "\(snapshot.warnings)")
        #expect(snapshot.nodes.count == 21)
        #expect(snapshot.roots.count == 1)
        #expect(snapshot.nodes.last?.id == CoordinatorID(1 << 62))
        #expect(snapshot.nodes.allSatisfy { $0.verdict == .alive })
        #expect(snapshot.path(to: CoordinatorID(1 << 62)).count == 21, "one chain, every parent found again")
    }

    @Test func idsAboveTwoToThe53StayExact() throws {
        let text = """
            {"event":"session","v":1,"app":"A","run":"r"}
            {"seq":1,"t":0,"event":"add","id":9007199254740992,"type":"Even"}
            {"seq":2,"t":0,"event":"add","id":9007199254740993,"type":"Odd","parent":9007199254740992}
            {"seq":3,"t":0,"event":"add","id":9223372036854775807,"type":"Max","parent":9007199254740993}
            {"seq":4,"t":0,"event":"add","id":9223372036854775808,"type":"TooBig"}
            {"seq":5,"t":0,"event":"add","id":-9223372036854775808,"type":"Min"}
            """
        let snapshot = try Recording(bytes: Array(text.utf8)).sessions[0].snapshot()
        #expect(snapshot.nodes.map(\.id.number) == [9_007_199_254_740_992, 9_007_199_254_740_993, Int.max, Int.min])
        #expect(snapshot.node(9_007_199_254_740_993)?.parent == 9_007_199_254_740_992)
        #expect(snapshot.warnings.map(\.line) == [5, 6], "2^63 is no Int; the next line notes the seq it took")
        #expect(snapshot.warnings.first?.message.contains("must be an integer from") == true)
    }

    @Test(arguments: [1, 3, 64, 4_096])
    func anOverLongLineIsAWarningWithItsNumberAndTheNextLineIsRead(chunkSize: Int) throws {
        let long = #"{"seq":2,"t":0,"event":"add","id":2,"type":""# + String(repeating: "x", count: 5_000) + #""}"#
        let text = Array(
            """
            {"event":"session","v":1,"app":"A","run":"r"}
            {"seq":1,"t":0,"event":"add","id":1,"type":"App"}
            \(long)
            {"seq":3,"t":0,"event":"add","id":3,"type":"Next","parent":1}
            \(long)
            """.utf8)
        var recording = Recording(limits: InputLimits(maximumLineBytes: 1_000))
        var start = 0
        while start < text.count {
            let end = min(start + chunkSize, text.count)
            text[start..<end].withUnsafeBytes { recording.consume($0) }
            start = end
        }
        recording.finish()
        let snapshot = try recording.sessions[0].snapshot()
        #expect(snapshot.nodes.map(\.type) == ["App", "Next"])
        let overLong = snapshot.warnings.filter { $0.message.contains("longer than 1000 bytes") }
        #expect(overLong.map(\.line) == [3, 5], "\(snapshot.warnings)")
    }

    @Test func aLineJustAtTheLimitIsRead() throws {
        let line = #"{"event":"session","v":1,"app":"A","run":"r"}"#
        let recording = Recording(bytes: Array((line + "\n").utf8), limits: InputLimits(maximumLineBytes: line.utf8.count))
        #expect(recording.sessions.first?.header.app == "A")
        #expect(recording.sessions.first?.entries.isEmpty == true)
    }

    @Test func aSessionKeepsItsFirstWarningsAndCountsTheRest() throws {
        var text = #"{"event":"session","v":1,"app":"A","run":"r"}"# + "\n"
        for _ in 0..<25 { text += "garbage\n" }
        let log = Recording(bytes: Array(text.utf8), limits: InputLimits(maximumWarnings: 10)).sessions[0]
        let warnings = try log.snapshot().warnings
        #expect(warnings.count == 11)
        // No line of it could be used, so a summary comes first and takes one of the kept places.
        #expect(warnings.first?.message.hasPrefix("no event could be used: all 25 of its event lines failed to read, every one the same way") == true)
        #expect(warnings.dropFirst().prefix(9).map(\.line) == Array(2...10))
        #expect(warnings.last?.message.hasPrefix("… and 16 more warnings") == true, "\(warnings.last?.message ?? "")")
        #expect(log.entries.count == 11, "the 15 lines past the limit are one counted entry")
    }

    @Test func garbageBetweenEventsPastTheLimitIsCountedUpToTheCut() throws {
        var text = #"{"event":"session","v":1,"app":"A","run":"r"}"# + "\n"
        for seq in 1...20 { text += "garbage\n" + #"{"seq":\#(seq),"t":\#(seq),"event":"mark","label":"m\#(seq)"}"# + "\n" }
        let log = Recording(bytes: Array(text.utf8), limits: InputLimits(maximumWarnings: 5)).sessions[0]
        let atTen = try log.snapshot(until: .mark("m10")).warnings
        #expect(atTen.count == 6)
        #expect(atTen.last?.message.hasPrefix("… and 5 more warnings") == true)
        #expect(try log.snapshot().warnings.last?.message.hasPrefix("… and 15 more warnings") == true)
    }

    @Test func aByteOrderMarkBeforeTheSessionLineIsSkipped() throws {
        let text =
            "\u{FEFF}" + #"{"event":"session","v":1,"app":"Bom","run":"r"}"# + "\r\n"
            + #"{"seq":1,"t":0,"event":"add","id":1,"type":"App"}"# + "\r\n"
        let recording = Recording(bytes: Array(text.utf8))
        #expect(recording.sessions.map(\.header.app) == ["Bom"])
        let snapshot = try recording.sessions[0].snapshot()
        #expect(snapshot.warnings.isEmpty, "\(snapshot.warnings)")
        #expect(snapshot.nodes.map(\.type) == ["App"])
    }

    @Test func timeGoingBackwardsIsAWarningAndTheEventStillApplies() {
        var script = Script()
        script.at(0, .add(id: 1, type: "App", parent: nil))
        script.at(5, .add(id: 2, type: "Flow", parent: 1))
        script.at(3, .dismiss(id: 2))
        script.at(4.5, .mark(label: "Within the slack of threads that read the clock before the lock"))
        let tree = script.tree()
        #expect(tree.diagnostics.map(\.line) == [4])
        #expect(tree.diagnostics.first?.message.contains("t went back from 5.0 to 3.0") == true)
        #expect(tree[2]?.dismissedAt == 3)
        #expect(tree.lastTime == 5)
    }

    /// Found by the fuzzer: a seq of Int.max made the next expected seq overflow.
    @Test func seqsAtTheEndsOfIntAreWarningsNotATrap() {
        var tree = SessionTree(header: SessionHeader(app: "A", run: "r"))
        for (line, seq) in [Int.max, 1, Int.min, Int.max].enumerated() {
            tree.apply(EventRecord(seq: seq, time: 0, event: .mark(label: "m"), line: line + 1))
        }
        #expect(tree.diagnostics.map(\.line) == [1, 2, 3, 4])
        #expect(tree.diagnostics[0].message == "seq jumped from 0 to \(Int.max): \(Int.max - 1) events lost")
        #expect(tree.diagnostics[1].message == "seq 1 out of order (after \(Int.max))")
        #expect(tree.lastSeq == Int.max)
    }

    @Test func warningsThatNameAHugeTypeKeepOnlyItsStart() {
        var script = Script()
        let huge = String(repeating: "T", count: 1 << 20)
        script.at(0, .add(id: 1, type: huge, parent: nil))
        script.at(1, .deinitialized(id: 1))
        for _ in 0..<50 { script.at(2, .deinitialized(id: 1)) }
        let tree = script.tree()
        #expect(tree.diagnostics.count == 50)
        #expect(tree.diagnostics.allSatisfy { $0.message.utf8.count < 600 && $0.message.hasSuffix("bytes in all)") })
        #expect(tree.diagnostics.first?.message.hasPrefix("second deinit of TTT") == true)
        #expect(tree[1]?.type == huge, "the tree keeps the whole name")
    }

    /// A 200 KB mark label, read by either decoder (the hook's exact shape, and with a space that sends it to the
    /// general one): kept as its first 1,024 bytes and what was cut, whole characters only.
    @Test func aHugeMarkLabelIsCutAndSaysSo() throws {
        let label = String(repeating: "é", count: 100_000) + "end"
        let exact = #"{"seq":1,"t":0.5,"event":"mark","label":"\#(label)"}"#
        let spaced = #"{"seq":2, "t":0.6,"event":"mark","label":"\#(label)"}"#
        let text = [#"{"event":"session","v":1,"app":"Marks","run":"r"}"#, exact, spaced].joined(separator: "\n") + "\n"
        let records = Recording(bytes: Array(text.utf8)).sessions[0].entries.compactMap { entry -> EventRecord? in
            if case .record(let record) = entry { return record }
            return nil
        }
        #expect(records.count == 2)
        for record in records {
            guard case .mark(let kept) = record.event else {
                Issue.record("not a mark: \(record)")
                continue
            }
            #expect(kept.hasSuffix("… (a label of 200003 bytes, cut to 1024)"), "\(kept.suffix(60))")
            #expect(kept.utf8.count < 1_100)
            #expect(kept.hasPrefix("éé"))
        }
    }
}
