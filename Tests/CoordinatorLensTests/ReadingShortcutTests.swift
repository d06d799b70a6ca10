import CoordinatorLens
import Foundation
import Testing

/// The shortcuts reading takes for speed and memory give what the plain way gives: shared strings, boxed call
/// sites, and sessions kept as their final tree instead of their lines.
@Suite struct ReadingShortcutTests {
    /// Lines that exercise the scanner's slow paths: escapes, unicode, exponents, whitespace, any key order, nulls.
    static let trickyLines = [
        #"{"event":"session","v":1,"app":"Shop","run":"r1"}"#,
        #"{"seq":1,"t":0.5,"event":"add","id":1,"type":"AppCoordinatorWithALongName","file":"App/AppCoordinator.swift","line":3,"function":"start()"}"#,
        #"  { "type" : "FeatureCoordinator\u00e9\ud83d\ude00" , "parent" : 1 , "id" : 2 , "event" : "add" , "t" : 5e-1 , "seq" : 2 }  "#,
        #"{"seq":3,"t":1.0E0,"event":"add","id":3,"type":"FeatureCoordinator\u00e9\ud83d\ude00","parent":null,"file":"App\/Flows.swift","line":9,"path":"/src/App/Flows.swift"}"#,
        #"{"seq":4,"t":1.25,"event":"bind","id":3,"screen":"Screen \"quoted\" \\ backslash and a tab\t"}"#,
        #"{"seq":5,"t":1.5,"event":"mark","label":"checkpoint with a long label over sixteen bytes"}"#,
        "{\"seq\":6,\"t\":1.75,\"event\":\"bind\",\"id\":2,\"screen\":\"Bad \u{FFFD} UTF8 \(String(decoding: [0xC3, 0x28], as: UTF8.self))\"}",
        #"{"seq":7,"t":2,"event":"dismiss","id":3,"file":"App/AppCoordinator.swift","line":4}"#,
        "\t \r",
        #"{"seq":8,"t":2.5,"event":"remove","id":2,"parent":1,"extra":{"nested":[1,"}",2.5e3]}}"#,
        #"{"seq":9,"t":3,"event":"add","id":4,"type":"AppCoordinatorWithALongName","parent":1}"#,
        #"{"seq":10,"t":3,"event":"add","id":5,"type":"AppCoordinatorWithALongNamf","parent":1}"#,
        #"{"seq":11,"t":3.5,"event":"end"}"#,
    ]

    @Test func anInternerGivesTheSameLinesAsDecodingEachOnItsOwn() {
        var strings = StringInterner()
        for _ in 0..<3 {
            for (index, line) in Self.trickyLines.enumerated() {
                var copy = line
                let shared = copy.withUTF8 { EventDecoder.decode($0, lineNumber: index + 1, strings: &strings) }
                #expect(shared == EventDecoder.decode(line, lineNumber: index + 1), "line \(index + 1)")
            }
        }
        guard case .record(let record) = EventDecoder.decode(Self.trickyLines[2], lineNumber: 3) else {
            Issue.record("the whitespace-laden line did not decode")
            return
        }
        #expect(record.event == .add(id: 2, type: "FeatureCoordinatoré😀", parent: 1))
        #expect(record.time == 0.5 && record.seq == 2)
    }

    /// The hook's leading keys are matched whole; the same line in another order, or with spaces, must decode the same,
    /// errors and duplicate keys included.
    @Test(arguments: [
        (#"{"seq":4,"t":2.5,"event":"add","id":7,"type":"A","parent":1}"#, #"{"type":"A","parent":1,"id":7,"event":"add","t":2.5,"seq":4}"#),
        (#"{"seq":4,"t":2.5,"event":"dismiss","id":7,"id":8}"#, #"{ "id":7, "event":"dismiss", "t":2.5, "seq":4, "id":8 }"#),
        (#"{"seq":4,"t":2.5,"event":"dismiss","id":7.5}"#, #"{"id":7.5,"seq":4,"t":2.5,"event":"dismiss"}"#),
        (#"{"seq":4,"t":"soon","event":"end"}"#, #"{"t":"soon","seq":4,"event":"end"}"#),
        (#"{"seq":4,"t":2.5,"event":"mark","label":"x","seq":5}"#, #"{"label":"x","seq":4,"event":"mark","t":2.5,"seq":5}"#),
        (#"{"seq":4,"t":25e-1,"event":"deinit","id":7}"#, #"{"seq" :4,"t":2.5,"event":"deinit","id":7}"#),
        (#"{"seq":4,"t":2.5,"event":null,"id":7}"#, #"{"event":null,"seq":4,"t":2.5,"id":7}"#),
        (#"{"seq":4,"t":2.5,"event":"add","id":null,"type":"A"}"#, #"{"id":null,"seq":4,"t":2.5,"event":"add","type":"A"}"#),
        (#"{"seq":4,"t":2.5,"event":"heartbeat""#, #"{"t":2.5,"seq":4,"event":"heartbeat""#),
        (#"{"seq":4,"t":2.5,"ev":"end"}"#, #"{"ev":"end","t":2.5,"seq":4}"#),
        // Python's json.dumps: a space after every colon and comma, which the whole-key match must take too.
        (#"{"seq": 4, "t": 2.5, "event": "add", "id": 7, "type": "A", "parent": 1}"#, #"{"type":"A","parent":1,"id":7,"event":"add","t":2.5,"seq":4}"#),
        ("{\"seq\":4,\"t\": 2.5,\"event\":\t\"add\",\"id\":  7,\"type\":\"A\"}", #"{"type":"A","id":7,"event":"add","t":2.5,"seq":4}"#),
        // Each kind's own keys and the call site, in the hook's order, with some left out, some twice, some moved.
        (
            #"{"seq":4,"t":2.5,"event":"add","id":7,"type":"A","parent":1,"file":"M/F.swift","line":3,"function":"f()","path":"/s/M/F.swift"}"#,
            #"{"path":"/s/M/F.swift","function":"f()","line":3,"file":"M/F.swift","parent":1,"type":"A","id":7,"event":"add","t":2.5,"seq":4}"#
        ),
        (
            #"{"seq":4,"t":2.5,"event":"remove","id":7,"parent":1,"file":"M/F.swift","line":3}"#,
            #"{"file":"M/F.swift","line":3,"parent":1,"id":7,"event":"remove","t":2.5,"seq":4}"#
        ),
        (
            #"{"seq":4,"t":2.5,"event":"bind","id":7,"screen":"S","file":"M/F.swift","function":"f()"}"#,
            #"{"function":"f()","file":"M/F.swift","screen":"S","id":7,"event":"bind","t":2.5,"seq":4}"#
        ),
        (
            #"{"seq":4,"t":2.5,"event":"dismiss","id":7,"via":"screen-left","file":"M/F.swift","line":3,"function":"f()"}"#,
            #"{"via":"screen-left","line":3,"function":"f()","file":"M/F.swift","id":7,"event":"dismiss","t":2.5,"seq":4}"#
        ),
        (
            #"{"seq":4,"t":2.5,"event":"add","id":7,"parent":1,"type":"A","file":"M/F.swift","line":3,"file":"N/G.swift"}"#,
            #"{"type":"A","parent":1,"id":7,"event":"add","t":2.5,"seq":4,"line":3,"file":"N/G.swift"}"#
        ),
        (
            #"{"seq":4,"t":2.5,"event":"bind","id":7,"screen":5,"file":"M/F.swift"}"#,
            #"{"screen":5,"file":"M/F.swift","id":7,"event":"bind","t":2.5,"seq":4}"#
        ),
        (
            #"{"seq":4,"t":2.5,"event":"add","id":7,"type":"A","file":"M/F.swift","line":3.5}"#,
            #"{"line":3.5,"type":"A","file":"M/F.swift","id":7,"event":"add","t":2.5,"seq":4}"#
        ),
    ])
    func theHooksKeyOrderDecodesAsAnyOther(hookOrder: String, otherOrder: String) {
        let fast = EventDecoder.decode(hookOrder, lineNumber: 3)
        let general = EventDecoder.decode(otherOrder, lineNumber: 3)
        switch (fast, general) {
        case (.record, .record): #expect(fast == general)
        case (.malformed(let a), .malformed(let b)):
            // Syntax errors name a byte offset, which differs with the order; the rest of the message must not.
            #expect(a.message.split(separator: ":").last == b.message.split(separator: ":").last)
        default: Issue.record("\(fast) vs \(general)")
        }
    }

    @Test func namesThatCollideInTheCacheStayApart() {
        var strings = StringInterner()
        let names = (0..<5_000).map { "Feature\($0)FlowCoordinator" } + (0..<500).map { "SameLengthNameNumber\($0 % 10)xx" }
        for round in 0..<2 {
            for name in names {
                var bytes = Array(name.utf8)
                let got = bytes.withUnsafeMutableBufferPointer { strings.string(UnsafeBufferPointer($0)) }
                #expect(got == name, "round \(round)")
            }
        }
        let invalid: [UInt8] = Array("RepairedText-Over-16-Bytes".utf8) + [0xFF, 0xC3]
        let repaired = invalid.withUnsafeBufferPointer { strings.string($0) }
        #expect(repaired == String(decoding: invalid, as: UTF8.self))
        #expect(invalid.withUnsafeBufferPointer { strings.string($0) } == repaired)
    }

    /// Call sites are shared through a small cache; sites that land in one slot, or differ in one field, stay apart.
    @Test func callSitesThatCollideInTheCacheStayApart() {
        var strings = StringInterner()
        var lines: [(line: String, site: CallSite)] = []
        for number in 0..<2_000 {
            let file = "Module\(number % 7)/File\(number % 13).swift"
            let function: String? = number % 3 == 0 ? nil : "call\(number % 5)()"
            let path: String? = number % 4 == 0 ? nil : "/src/\(file)"
            var line = #"{"seq":1,"t":0,"event":"dismiss","id":1,"file":"\#(file)","line":\#(number % 300)"#
            if let function { line += #","function":"\#(function)""# }
            if let path { line += #","path":"\#(path)""# }
            lines.append((line + "}", CallSite(file: file, line: number % 300, function: function, path: path)))
        }
        for round in 0..<2 {
            for (index, item) in lines.enumerated() {
                var copy = item.line
                guard case .record(let record) = copy.withUTF8({ EventDecoder.decode($0, lineNumber: index + 1, strings: &strings) })
                else {
                    Issue.record("line \(index + 1) did not decode")
                    continue
                }
                #expect(record.site == item.site, "round \(round), line \(index + 1)")
                #expect(record.site?.function == item.site.function && record.site?.path == item.site.path)
            }
        }
    }

    /// Strings are scanned eight bytes at a time: a quote, a backslash, a control character or a multi-byte
    /// character at any position of a word must read as Foundation reads it, or be refused as it refuses it.
    @Test func stringsReadAsFoundationReadsThemWhereverTheSpecialByteFalls() throws {
        let specials = [#"\""#, #"\\"#, #"\n"#, #"\u00e9"#, "é", "😀", "\u{7F}", "\u{1F}", "\t", "/", #"\/"#]
        for length in 0..<26 {
            for position in 0...length {
                for special in specials {
                    let filler = String(repeating: "a", count: length)
                    let inner = String(filler.prefix(position)) + special + String(filler.dropFirst(position))
                    let line = #"{"seq":1,"t":0,"event":"mark","label":""# + inner + #""}"#
                    let decoded = EventDecoder.decode(line, lineNumber: 1)
                    let foundation = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
                    if let label = foundation?["label"] as? String {
                        #expect(decoded == .record(EventRecord(seq: 1, time: 0, event: .mark(label: label), line: 1)), "\(line)")
                    } else if case .record = decoded {
                        Issue.record("Foundation refuses \(line), the decoder took it")
                    }
                }
            }
        }
    }

    /// Integers of up to 18 digits are read without overflow checks; longer ones, and the edges of Int, the careful way.
    @Test(arguments: [
        ("999999999999999999", 999_999_999_999_999_999 as Int?), ("-999999999999999999", -999_999_999_999_999_999),
        ("1000000000000000000", 1_000_000_000_000_000_000), ("9223372036854775807", Int.max),
        ("-9223372036854775808", Int.min), ("9223372036854775808", nil), ("-9223372036854775809", nil),
        ("000000000000000000000000000007", 7), ("123456789012345678.5", nil), ("12345678901234567e1", nil),
        ("-0", 0), ("18446744073709551616", nil),
    ])
    func integersAreExactToTheEdgesOfInt(text: String, value: Int?) {
        let decoded = EventDecoder.decode(#"{"seq":"# + text + #","t":0,"event":"heartbeat"}"#, lineNumber: 1)
        if let value {
            #expect(decoded == .record(EventRecord(seq: value, time: 0, event: .heartbeat, line: 1)))
        } else if case .malformed(let diagnostic) = decoded {
            #expect(diagnostic.message.hasPrefix(#""seq" must be an integer"#) && diagnostic.message.hasSuffix(text))
        } else {
            Issue.record("\(text) decoded as \(decoded)")
        }
    }

    @Test func callSitesCompareEncodeAndChangeByValue() throws {
        var site = CallSite(file: "App/A.swift", line: 7, function: "start()")
        let same = CallSite(file: "App/A.swift", line: 7, function: "start()")
        #expect(site == same && site.hashValue == same.hashValue)
        let copy = site
        site.path = "/src/App/A.swift"
        site.line = 8
        #expect(copy == same, "a copy keeps its own fields")
        #expect(site == CallSite(file: "App/A.swift", line: 8, function: "start()", path: "/src/App/A.swift"))
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        #expect(String(decoding: try encoder.encode(copy), as: UTF8.self) == #"{"file":"App\/A.swift","function":"start()","line":7}"#)
        #expect(try JSONDecoder().decode(CallSite.self, from: encoder.encode(site)) == site)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(CallSite.self, from: Data(#"{"line":1}"#.utf8)) }
    }

    @Test(arguments: [0, 1, 2, 50])
    func keepingOnlyTheTreeJudgesAsReplayingEveryLine(maximumWarnings: Int) throws {
        var lines = Self.trickyLines
        // Lines before any session line, a second run interleaved, a repeated header, and a flood of garbage.
        lines.insert(#"{"seq":1,"t":0,"event":"add","id":9,"type":"Early"}"#, at: 0)
        lines += [
            #"{"event":"session","v":1,"app":"Other","run":"r2"}"#,
            #"{"seq":1,"t":0,"event":"add","id":1,"type":"Other"}"#,
            #"{"seq":3,"t":0,"event":"dismiss","id":7}"#,
            #"{"event":"session","v":1,"app":"Shop","run":"r1"}"#,
            #"{"seq":12,"t":9,"event":"add","id":6,"type":"AfterTheEnd"}"#,
        ]
        lines += (0..<5).map { "not json \($0)" }
        lines += [#"{"seq":13,"t":9,"event":"deinit","id":1}"#, "{broken", #"{"seq":14,"t":10,"event":"heartbeat"}"#]
        let bytes = Array(lines.joined(separator: "\n").utf8)
        let limits = InputLimits(maximumWarnings: maximumWarnings)
        let everyLine = Recording(bytes: bytes, limits: limits)
        let treeOnly = Recording(bytes: bytes, limits: limits, keeping: .treeAtEnd)
        #expect(everyLine.sessions.count == 3 && treeOnly.sessions.count == 3)
        #expect(treeOnly.usableLines == everyLine.usableLines && treeOnly.firstProblem == everyLine.firstProblem)
        for (full, kept) in zip(everyLine.sessions, treeOnly.sessions) {
            #expect(kept.header == full.header && kept.entries.isEmpty)
            for grace in [0.0, 2.0] {
                #expect(try kept.snapshot(grace: grace) == full.snapshot(grace: grace))
            }
            #expect(throws: CutError.self) { try kept.replay(until: .seq(1)) }
        }
    }
}
