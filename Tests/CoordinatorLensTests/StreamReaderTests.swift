import CoordinatorLens
import Testing

@Suite struct StreamReaderTests {
    /// Feeds `bytes` in chunks of `size` and collects every item with the text of its line.
    private func read(_ bytes: [UInt8], chunk size: Int, maxLineBytes: Int = .max) -> [(StreamReader.Item, String)] {
        var reader = StreamReader(maxLineBytes: maxLineBytes, inventedRunPrefix: "c7-")
        var items: [(StreamReader.Item, String)] = []
        var start = 0
        while start < bytes.count {
            let end = min(start + size, bytes.count)
            bytes[start..<end].withUnsafeBytes { chunk in
                reader.consume(chunk) { item, line in items.append((item, String(decoding: line, as: UTF8.self))) }
            }
            start = end
        }
        reader.finish { item, line in items.append((item, String(decoding: line, as: UTF8.self))) }
        return items
    }

    @Test func routesEveryLineToItsRunWhateverTheChunkSize() {
        let text = Array(
            """
            {"event":"session","v":1,"app":"A","run":"a"}
            {"seq":1,"t":0,"event":"add","id":1,"type":"Home"}
            {"event":"session","v":1,"app":"B","run":"b"}
            not json
            {"seq":1,"t":0,"event":"end"}
            """.utf8)
        let whole = read(text, chunk: text.count)
        for size in [1, 3, 17] {
            #expect(read(text, chunk: size).map(\.0) == whole.map(\.0), "chunk size \(size)")
        }
        guard whole.count == 5 else {
            Issue.record("expected 5 items, got \(whole.map(\.0))")
            return
        }
        #expect(whole[0].0 == .session(SessionHeader(app: "A", run: "a"), line: 1))
        #expect(whole[1].0 == .record(EventRecord(seq: 1, time: 0, event: .add(id: 1, type: "Home", parent: nil), line: 2), run: "a"))
        #expect(whole[2].0 == .session(SessionHeader(app: "B", run: "b"), line: 3))
        if case .malformed(let diagnostic, let run) = whole[3].0 {
            #expect(diagnostic.line == 4 && run == "b")
        } else {
            Issue.record("line 4 should be malformed, got \(whole[3].0)")
        }
        #expect(whole[4].0 == .record(EventRecord(seq: 1, time: 0, event: .end, line: 5), run: "b"))
        #expect(whole[1].1 == #"{"seq":1,"t":0,"event":"add","id":1,"type":"Home"}"#)
    }

    @Test func linesBeforeAnySessionLineGetAnInventedRunAndANote() {
        let items = read(Array(#"{"seq":1,"t":0,"event":"end"}"#.utf8) + [0x0A], chunk: 5)
        guard items.count == 2, case .inventedSession(let header, let note) = items[0].0 else {
            Issue.record("expected an invented session first, got \(items.map(\.0))")
            return
        }
        #expect(header == SessionHeader(app: "unknown", run: "c7-line-1"))
        #expect(note.line == 1)
        #expect(items[1].0 == .record(EventRecord(seq: 1, time: 0, event: .end, line: 1), run: "c7-line-1"))
    }

    @Test(arguments: [1, 10, 4096])
    func overlongLinesAreSkippedToTheirNewlineAndCountAsLines(chunk: Int) {
        let session = #"{"event":"session","v":1,"app":"A","run":"a"}"#
        let event = #"{"seq":1,"t":0,"event":"end"}"#
        let long = String(repeating: "x", count: 5_000)
        let exact = String(repeating: " ", count: 64)
        let text = Array([session, long, event, exact, long].joined(separator: "\n").utf8)
        let items = read(text, chunk: chunk, maxLineBytes: 64)
        let kinds = items.map { item -> String in
            switch item.0 {
            case .session: "session"
            case .record(let record, _): "record@\(record.line)"
            case .overlong(let diagnostic, let run): "overlong@\(diagnostic.line)/\(run)"
            case .malformed, .inventedSession: "other"
            }
        }
        // A line of exactly the limit is kept (this one is blank, so it yields nothing); the last, unterminated,
        // over-long line is reported as soon as it passes the limit.
        #expect(kinds == ["session", "overlong@2/a", "record@3", "overlong@5/a"])
        // Its first bytes go with it, enough for a receiver to read the seq of the event it refused.
        #expect(items[1].1 == String(repeating: "x", count: LineSplitter.overlongPrefixBytes))
        #expect(items[3].1 == String(repeating: "x", count: LineSplitter.overlongPrefixBytes))
    }

    @Test func theReaderStillWorksAfterAGiantLine() {
        var reader = StreamReader(maxLineBytes: 1_024)
        var records = 0
        var overlong = 0
        let giant = [UInt8](repeating: 0x41, count: 1 << 20)
        let body: (StreamReader.Item, UnsafeBufferPointer<UInt8>) -> Void = { item, _ in
            if case .record = item { records += 1 }
            if case .overlong = item { overlong += 1 }
        }
        Array(#"{"event":"session","v":1,"app":"A","run":"a"}"#.utf8 + [0x0A]).withUnsafeBytes { reader.consume($0, body) }
        for _ in 0..<16 { giant.withUnsafeBytes { reader.consume($0, body) } }
        Array(("\n" + #"{"seq":1,"t":0,"event":"end"}"# + "\n").utf8).withUnsafeBytes { reader.consume($0, body) }
        reader.finish(body)
        #expect(overlong == 1)
        #expect(records == 1)
        #expect(reader.linesRead == 3)
    }
}
