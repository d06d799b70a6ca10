import CoordinatorLens
import Testing

/// The `held` line: decoded into steps, kept on the coordinator, printed under its leak; a broken one is a warning
/// naming its line, and the coordinator is judged as before.
@Suite struct HeldByTests {
    private static let session = #"{"event":"session","v":1,"app":"Shop","run":"r1"}"#

    private func snapshot(_ lines: [String]) throws -> Snapshot {
        let text = ([Self.session] + lines).joined(separator: "\n") + "\n"
        return try #require(Recording(bytes: Array(text.utf8)).sessions.first).snapshot(grace: 1)
    }

    @Test func aHeldLineIsKeptAndPrintedUnderItsLeak() throws {
        let snapshot = try snapshot([
            #"{"seq":1,"t":0,"event":"add","id":1,"type":"App"}"#,
            #"{"seq":2,"t":0,"event":"add","id":2,"type":"Share","parent":1}"#,
            #"{"seq":3,"t":1,"event":"remove","id":2,"parent":1}"#,
            #"{"seq":4,"t":5,"event":"held","id":2,"via":"live","count":9,"label":"App\u001f1\u001frouter\u001fproperty\u001eRouter\u001f\u001fcompletions[12]\u001fcapture"}"#,
            #"{"seq":5,"t":5,"event":"end"}"#,
        ])
        let held = try #require(snapshot.heldBy[2])
        #expect(held.outcome == .live && held.visited == 9)
        #expect(held.steps.map(\.holder) == ["App", "Router"])
        #expect(held.steps.first?.holderID == 1 && held.steps.last?.holderID == nil)
        #expect(held.text(target: "Share#2") == "App#1.router › Router.completions[12] (capture) › Share#2")
        #expect(held.suspect == "Router.completions[] (capture)", "positions left out, so one array's leaks group")
        let report = LeakReport.line(for: try #require(snapshot.node(2)))
        #expect(report.hasPrefix("Share#2 retained: detached"))
    }

    /// `closures` names the closure each step is in (empty for none), in a key of its own so a reader of four-field
    /// steps reads the label as before: printed in the trace, carried in `--format json`.
    @Test func aStepThroughAClosureSaysWhichClosure() throws {
        let snapshot = try snapshot([
            #"{"seq":1,"t":0,"event":"add","id":1,"type":"App"}"#,
            #"{"seq":2,"t":0,"event":"add","id":2,"type":"Share","parent":1}"#,
            #"{"seq":3,"t":1,"event":"remove","id":2,"parent":1}"#,
            #"{"seq":4,"t":5,"event":"held","id":2,"via":"live","count":9,"label":"App\u001f1\u001frouter\u001fproperty\u001eRouter\u001f\u001fcompletions[12]\u001fcapture\u001eSheet\u001f\u001fonClose\u001fclosure","closures":"\u001eclosure #1 in Router.add(_:)\u001eSheet.close()"}"#,
            #"{"seq":5,"t":5,"event":"held","id":1,"via":"live","count":1,"label":"A\u001f\u001fb\u001fproperty","closures":"one\u001etwo"}"#,
        ])
        let held = try #require(snapshot.heldBy[2])
        #expect(held.steps.map(\.closure) == [nil, "closure #1 in Router.add(_:)", "Sheet.close()"])
        #expect(
            held.text(target: "Share#2")
                == "App#1.router › Router.completions[12] (captured by closure #1 in Router.add(_:)) › Sheet.onClose (closure Sheet.close()) › Share#2")
        let json = CheckJSONReport.json(for: CheckResult(grace: 1, sessions: [SessionCheck(source: "s.ndjson", snapshot: snapshot, atEnd: true)]))
        // A leak's trace says each holder's state: the living App is not leaking, the Router unknown, both suspect.
        #expect(
            json.contains(#""field":"completions[12]","kind":"capture","closure":"closure #1 in Router.add(_:)","leaking":"unknown","suspect":true}"#),
            "\(json)")
        #expect(json.contains(#""field":"router","kind":"property","leaking":"no","suspect":true}"#))
        #expect(snapshot.warnings.contains { $0.line == 6 && $0.message.contains("must name one closure (or none) per step") }, "\(snapshot.warnings)")
    }

    @Test func aBrokenHeldLineIsAWarningNamingItsLine() throws {
        let snapshot = try snapshot([
            #"{"seq":1,"t":0,"event":"add","id":1,"type":"App"}"#,
            #"{"seq":2,"t":1,"event":"held","id":1,"via":"somewhere","count":1,"label":""}"#,
            #"{"seq":3,"t":1,"event":"held","id":1,"via":"live","count":1,"label":"only\u001ftwo"}"#,
            #"{"seq":4,"t":1,"event":"held","id":7,"via":"unreachable","count":1,"label":""}"#,
        ])
        #expect(snapshot.heldBy.isEmpty)
        let messages = snapshot.warnings.map { "\($0.line): \($0.message)" }
        #expect(messages.contains { $0.hasPrefix("3:") && $0.contains(#""via" of a held line must be"#) }, "\(messages)")
        #expect(messages.contains { $0.hasPrefix("4:") && $0.contains("steps of four fields") }, "\(messages)")
        #expect(messages.contains { $0.hasPrefix("5:") && $0.contains("held") }, "an unknown coordinator: \(messages)")
        #expect(snapshot.node(1)?.verdict == .alive)
    }
}
