import CoordinatorLens
import Foundation
import Testing

@Suite struct DecoderTests {
    @Test func decodesEveryKindWithOptionalCallSite() {
        let lines = [
            #"{"seq":1,"t":0.5,"event":"add","id":2,"type":"Home","parent":1,"file":"A.swift","line":7,"function":"start()"}"#,
            #"{"seq":2,"t":1,"event":"remove","id":2,"parent":1}"#,
            #"{"seq":3,"t":1,"event":"bind","id":2,"screen":"HomeViewController"}"#,
            #"{"seq":4,"t":1,"event":"dismiss","id":2}"#,
            #"{"seq":5,"t":1,"event":"deinit","id":2}"#,
            #"{"seq":6,"t":1,"event":"mark","label":"after \"login\" \u00e9\ud83d\ude00"}"#,
            #"{"seq":7,"t":1,"event":"dropped","count":3}"#,
            #"{"seq":8,"t":1,"event":"end","extra":{"nested":[1,{"a":"}"}]}}"#,
            #"{"seq":9,"t":1,"event":"teleport"}"#,
        ]
        let events = lines.enumerated().map { index, line -> Event? in
            if case .record(let record) = EventDecoder.decode(line, lineNumber: index + 1) { return record.event }
            return nil
        }
        #expect(
            events == [
                .add(id: 2, type: "Home", parent: 1), .remove(id: 2, parent: 1), .bind(id: 2, screen: "HomeViewController"),
                .dismiss(id: 2), .deinitialized(id: 2), .mark(label: "after \"login\" é😀"), .dropped(count: 3), .end,
                .unknown(kind: "teleport"),
            ])
        if case .record(let record) = EventDecoder.decode(lines[0], lineNumber: 1) {
            #expect(record.site == CallSite(file: "A.swift", line: 7, function: "start()"))
            #expect(record.time == 0.5)
        } else {
            Issue.record("the first line did not decode")
        }
        let withPath = #"{"seq":1,"t":0,"event":"add","id":2,"type":"H","file":"M/A.swift","line":7,"path":"/src/M/A.swift"}"#
        if case .record(let record) = EventDecoder.decode(withPath, lineNumber: 1) {
            #expect(record.site == CallSite(file: "M/A.swift", line: 7, path: "/src/M/A.swift"))
        } else {
            Issue.record("a line with a path did not decode")
        }
    }

    @Test func nullParentIsARoot() {
        guard case .record(let record) = EventDecoder.decode(#"{"seq":1,"t":0,"event":"add","id":1,"type":"App","parent":null}"#, lineNumber: 1)
        else {
            Issue.record("not decoded")
            return
        }
        #expect(record.event == .add(id: 1, type: "App", parent: nil))
    }

    @Test(arguments: [
        (#"{"seq":1,"t":0,"event":"add","type":"App"}"#, "missing \"id\""),
        (#"{"seq":1,"t":0,"event":"add","id":7.5,"type":"App"}"#, "\"id\" must be an integer, not 7.5"),
        (#"{"seq":1,"t":0,"event":"add","id":[7],"type":"App"}"#, "\"id\" must be an integer or a string, not an object or array"),
        (#"{"seq":1.5,"t":0,"event":"end"}"#, "\"seq\" must be an integer, not 1.5"),
        (#"{"t":0,"event":"end"}"#, "missing \"seq\""),
        (#"{"seq":1,"t":-1,"event":"end"}"#, "\"t\" must be a non-negative number of seconds"),
        (#"{"seq":1,"t":0}"#, "missing \"event\""),
        (#"{"seq":1,"t":0,"event":"end""#, "malformed JSON at byte 29: unterminated object"),
        (#"[1,2]"#, "malformed JSON at byte 1: expected a JSON object"),
        (#"{"event":"session","v":2,"app":"A","run":"r"}"#, "unsupported wire format version 2 (this reader knows 1)"),
        (#"{"event":"session","v":1,"run":"r"}"#, "missing \"app\""),
    ])
    func malformedLinesNameTheProblem(line: String, message: String) {
        #expect(EventDecoder.decode(line, lineNumber: 12) == .malformed(Diagnostic(line: 12, message: message)))
    }

    @Test func badLinesAreReportedAndTheValidLinesAroundThemKept() throws {
        let text = """
            {"event":"session","v":1,"app":"Shop","run":"a"}
            {"seq":1,"t":0,"event":"add","id":1,"type":"App"}
            {"seq":2,"t":0.1,"event":"add","id":2,"type":"Cart","parent":1
            garbage

            {"seq":3,"t":0.2,"event":"add","id":3,"type":"Pay","parent":1}
            {"seq":4,"t":0.3,"event":"dismiss","id":3}
            """
        let recording = Recording(bytes: Array(text.utf8))
        #expect(recording.sessions.count == 1)
        let snapshot = try recording.sessions[0].snapshot(until: .end)
        #expect(snapshot.nodes.map(\.type) == ["App", "Pay"])
        #expect(snapshot.warnings.map(\.line) == [3, 4, 6])
        #expect(snapshot.warnings[0].message.hasPrefix("malformed JSON"))
        #expect(snapshot.warnings[2].message == "seq jumped from 1 to 3: 1 event lost", "the broken line took seq 2 with it")
    }

    @Test func sessionsStaySeparateEvenWithTheSameIds() throws {
        let text = """
            {"event":"session","v":1,"app":"A","run":"one"}
            {"seq":1,"t":0,"event":"add","id":1,"type":"First"}
            {"event":"session","v":1,"app":"A","run":"two"}
            {"seq":1,"t":0,"event":"add","id":1,"type":"Second"}
            {"event":"session","v":1,"app":"A","run":"one"}
            {"seq":2,"t":1,"event":"add","id":2,"type":"FirstChild","parent":1}
            """
        let recording = Recording(bytes: Array(text.utf8))
        #expect(recording.sessions.map(\.header.run) == ["one", "two"])
        let one = try recording.sessions[0].snapshot()
        let two = try recording.sessions[1].snapshot()
        #expect(one.nodes.map(\.type) == ["First", "FirstChild"])
        #expect(two.nodes.map(\.type) == ["Second"])
        #expect(one.warnings.isEmpty && two.warnings.isEmpty)
    }

    @Test func eventsBeforeAnySessionLineGetASessionAndAWarning() throws {
        let recording = Recording(bytes: Array(#"{"seq":1,"t":0,"event":"add","id":1,"type":"App"}"#.utf8))
        let snapshot = try recording.sessions[0].snapshot()
        #expect(snapshot.nodes.count == 1)
        #expect(snapshot.warnings.first?.message.contains("before any session line") == true)
    }

    @Test func chunksSplitAnywhereDecodeTheSame() {
        let text = Array(
            """
            {"event":"session","v":1,"app":"A","run":"r"}
            {"seq":1,"t":0,"event":"add","id":1,"type":"Äpp 😀"}
            {"seq":2,"t":0,"event":"end"}

            """.utf8)
        for size in [1, 2, 7, 64] {
            var recording = Recording()
            var start = 0
            while start < text.count {
                let end = min(start + size, text.count)
                text[start..<end].withUnsafeBytes { recording.consume($0) }
                start = end
            }
            recording.finish()
            let events = recording.sessions.first?.entries.count
            #expect(events == 2, "chunk size \(size)")
            if case .record(let record) = recording.sessions.first?.entries.first {
                #expect(record.event == .add(id: 1, type: "Äpp 😀", parent: nil))
            } else {
                Issue.record("a line split inside a UTF-8 character did not decode (chunk size \(size))")
            }
        }
    }

    @Test func cutsPickAPointInTheSession() throws {
        let text = """
            {"event":"session","v":1,"app":"A","run":"r"}
            {"seq":1,"t":0,"event":"add","id":1,"type":"App"}
            {"seq":2,"t":1,"event":"add","id":2,"type":"Flow","parent":1}
            {"seq":3,"t":2,"event":"mark","label":"opened"}
            {"seq":4,"t":3,"event":"dismiss","id":2}
            {"seq":5,"t":9,"event":"end"}
            """
        let log = Recording(bytes: Array(text.utf8)).sessions[0]
        #expect(try log.snapshot(until: .seq(1)).nodes.count == 1)
        #expect(try log.snapshot(until: .time(1.5)).evaluatedAt == 1.5)
        #expect(try log.snapshot(until: .mark("opened")).verdict(2) == .alive)
        #expect(try log.snapshot(until: .time(4)).verdict(2) == .pending)
        #expect(try log.snapshot().verdict(2) == .retained)
        #expect(throws: CutError.self) { try log.snapshot(until: .mark("missing")) }
    }

    @Test func snapshotsRoundTripThroughJSON() throws {
        var script = Script()
        script.at(0, .add(id: 1, type: "App", parent: nil))
        script.at(0.5, .add(id: 2, type: "Flow \"x\"", parent: 1))
        script.at(1, .dismiss(id: 2))
        let snapshot = script.snapshot(at: 9)
        let data = try JSONEncoder().encode(snapshot)
        let decoded = try JSONDecoder().decode(Snapshot.self, from: data)
        #expect(decoded == snapshot)
        #expect(decoded.node(2)?.verdict == .retained)
    }
}
