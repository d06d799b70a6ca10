import CoordinatorLens
import Testing

/// Leaks grouped by their cause, LeakCanary's signature of suspect references: the types and fields between the last
/// object that is not leaking and the first that is, positions and ids left out. Seven coordinators one cycle keeps
/// are one cause; a leak held only through another sits under that one.
@Suite struct LeakCauseTests {
    private static let session = #"{"event":"session","v":1,"app":"Tabs","run":"r1"}"#

    /// The lines' `seq`s are numbered afresh, in order, so a test lists its events without counting them.
    private func check(_ lines: [String]) throws -> CheckResult {
        let numbered = lines.enumerated().map { index, line in
            line.replacing(#/"seq":\d+/#, with: "\"seq\":\(index + 1)")
        }
        let text = ([Self.session] + numbered).joined(separator: "\n") + "\n"
        let snapshot = try #require(Recording(bytes: Array(text.utf8)).sessions.first).snapshot(grace: 1)
        return CheckResult(grace: 1, sessions: [SessionCheck(source: "tabs.ndjson", snapshot: snapshot, atEnd: true)])
    }

    /// A tab coordinator in a cycle through its item's closure, five children below it, all retained.
    private func cycleWithChildren() throws -> CheckResult {
        var lines = [
            #"{"seq":1,"t":0,"event":"add","id":1,"type":"App"}"#,
            #"{"seq":2,"t":0,"event":"add","id":2,"type":"TabCoordinator","parent":1,"file":"Tabs/App.swift","line":10}"#,
        ]
        for id in 3...7 {
            lines.append(#"{"seq":\#(id),"t":0,"event":"add","id":\#(id),"type":"ChildCoordinator","parent":2,"file":"Tabs/Tab.swift","line":20}"#)
        }
        lines.append(#"{"seq":8,"t":1,"event":"remove","id":2,"parent":1}"#)
        for id in 3...7 { lines.append(#"{"seq":0,"t":1,"event":"dismiss","id":\#(id)}"#) }
        lines.append(#"{"seq":9,"t":5,"event":"held","id":2,"via":"cycle","count":4,"label":"TabCoordinator\u001f2\u001fitems[0].onSelect\u001fcapture"}"#)
        for id in 3...7 {
            lines.append(
                #"{"seq":\#(7 + id),"t":5,"event":"held","id":\#(id),"via":"live","count":3,"label":"TabCoordinator\u001f2\u001fchildren[\#(id - 3)]\u001felement"}"#
            )
        }
        lines.append(#"{"seq":20,"t":5,"event":"end"}"#)
        return try check(lines)
    }

    @Test func aCycleAndTheLeaksBelowItAreOneCause() throws {
        let result = try cycleWithChildren()
        let snapshot = result.sessions[0].snapshot
        #expect(snapshot.retained.count == 6)
        let groups = snapshot.causeGroups()
        #expect(groups.count == 1, "\(groups)")
        let group = try #require(groups.first)
        #expect(group.cause.description == "a cycle through TabCoordinator.items[].onSelect (capture)")
        #expect(group.ids == [2])
        #expect(group.heldThrough.map(\.id) == [3, 4, 5, 6, 7] && group.heldThrough.allSatisfy { $0.through == 2 })
        #expect(group.keepsText(in: snapshot) == "keeps 6 coordinators (1 directly, 5 held through it)")

        // check's text: the cause first, then each leak; those below say which leak they are held through.
        let text = LeakReport.text(for: result)
        let lines = text.split(separator: "\n").map(String.init)
        #expect(
            lines.filter { $0.hasPrefix("  cause: ") } == [
                "  cause: a cycle through TabCoordinator.items[].onSelect (capture) keeps 6 coordinators (1 directly, 5 held through it)"
            ])
        #expect(lines.firstIndex { $0.hasPrefix("  cause: ") } == 1, "the first line after the session's is the cause:\n\(text)")
        #expect(lines[2].hasPrefix("  RETAINED TabCoordinator#2: "), "\(text)")
        #expect(
            text.components(separatedBy: "held through TabCoordinator#2, itself retained (a cycle through TabCoordinator.items[].onSelect (capture))").count
                == 6,
            "\(text)")
        #expect(!text.contains("does not hold it"))

        // The CI formats: one finding for the six, at the cycle's line, with a note at the children's.
        let gcc = GCCReport.text(for: result).split(separator: "\n").map(String.init)
        #expect(gcc.filter { $0.contains(": error: ") }.count == 1, "\(gcc)")
        #expect(
            gcc.first
                == "Tabs/App.swift:10:1: error: a cycle through TabCoordinator.items[].onSelect (capture) keeps 6 coordinators (5 held through another of them): "
                + "TabCoordinator#2, 5 × ChildCoordinator (#3, #4, #5, #6, #7)", "\(gcc)")
        #expect(gcc.contains("Tabs/Tab.swift:20:1: note: 5 × ChildCoordinator added here, kept by the same cause"), "\(gcc)")
        let github = GitHubAnnotationsReport.text(for: result).split(separator: "\n")
        #expect(github.filter { $0.hasPrefix("::error ") }.count == 1)
        #expect(github.first?.contains("title=6 coordinators retained::") == true, "\(github)")

        // JSON: the session's causes, and each step's state on the traces.
        let json = CheckJSONReport.json(for: result)
        #expect(
            json.contains(
                #""causes":[{"cause":"a cycle through TabCoordinator.items[].onSelect (capture)","cycle":true,"count":6,"ids":[2],"heldThrough":[{"id":3,"through":2},"#
            ), "\(json)")
        #expect(json.contains(#""field":"children[0]","kind":"element","leaking":"yes","suspect":true}"#), "\(json)")
        // SARIF: a result each, every one with the cause as a fingerprint a viewer can group by.
        let sarif = SARIFReport.json(for: result)
        #expect(sarif.components(separatedBy: #""leakCause/v1":"a cycle through TabCoordinator.items[].onSelect (capture)""#).count == 7)
    }

    /// A chain of leaks, each the child of the one above: all of them go with the top one's cause, each held through its
    /// parent, in the order added. The chain's walk is shared (a deep chain once took minutes in `check`).
    @Test func aDeepChainOfLeaksIsOneCauseEachHeldThroughItsParent() throws {
        let depth = 300
        var lines = [#"{"seq":1,"t":0,"event":"add","id":1,"type":"App"}"#]
        for id in 2...depth { lines.append(#"{"seq":0,"t":0,"event":"add","id":\#(id),"type":"StepCoordinator","parent":\#(id - 1)}"#) }
        lines.append(#"{"seq":0,"t":1,"event":"remove","id":2,"parent":1}"#)
        for id in 2...depth { lines.append(#"{"seq":0,"t":1,"event":"dismiss","id":\#(id)}"#) }
        lines.append(#"{"seq":0,"t":5,"event":"held","id":2,"via":"cycle","count":2,"label":"StepCoordinator\u001f2\u001fonDone\u001fcapture"}"#)
        lines.append(#"{"seq":0,"t":5,"event":"end"}"#)
        let snapshot = try check(lines).sessions[0].snapshot
        #expect(snapshot.retained.count == depth - 1)
        let groups = snapshot.causeGroups()
        #expect(groups.count == 1, "\(groups.map(\.cause.description))")
        let group = try #require(groups.first)
        #expect(group.ids == [2])
        #expect(group.heldThrough.map(\.id) == (3...depth).map { CoordinatorID($0) })
        #expect(group.heldThrough.allSatisfy { $0.through == CoordinatorID($0.id.number - 1) }, "\(group.heldThrough.prefix(3))")
    }

    /// LeakCanary's suspects: from the last object that is not leaking to the first that is.
    @Test func theSuspectsRunFromTheLastNotLeakingToTheFirstLeaking() throws {
        let result = try check([
            #"{"seq":1,"t":0,"event":"add","id":1,"type":"App"}"#,
            #"{"seq":2,"t":0,"event":"add","id":2,"type":"Share","parent":1}"#,
            #"{"seq":3,"t":0,"event":"add","id":3,"type":"Flow","parent":1}"#,
            #"{"seq":4,"t":0,"event":"add","id":4,"type":"Sheet","parent":3}"#,
            #"{"seq":5,"t":1,"event":"remove","id":2,"parent":1}"#,
            #"{"seq":6,"t":1,"event":"remove","id":3,"parent":1}"#,
            #"{"seq":6,"t":1,"event":"dismiss","id":4}"#,
            // App#1 is alive; Router and Box are objects no session judges.
            #"{"seq":7,"t":5,"event":"held","id":2,"via":"live","count":9,"label":"App\u001f1\u001frouter\u001fproperty\u001eRouter\u001f\u001fcompletions[12]\u001fcapture"}"#,
            #"{"seq":8,"t":5,"event":"held","id":3,"via":"live","count":9,"label":"App\u001f1\u001frouter\u001fproperty\u001eRouter\u001f\u001fcompletions[13]\u001fcapture\u001eBox\u001f\u001fflow\u001fproperty"}"#,
            // Held from the living App through the leaked Flow#3: its cause is Flow's.
            #"{"seq":9,"t":5,"event":"held","id":4,"via":"live","count":9,"label":"App\u001f1\u001frouter\u001fproperty\u001eRouter\u001f\u001fcompletions[13]\u001fcapture\u001eBox\u001f\u001fflow\u001fproperty\u001eFlow\u001f3\u001fsheet\u001fproperty"}"#,
            #"{"seq":10,"t":5,"event":"end"}"#,
        ])
        let snapshot = result.sessions[0].snapshot
        let share = try #require(snapshot.leakTrace(of: 2))
        #expect(share.states == [.notLeaking, .unknown, .leaking])
        #expect(share.suspects == 0..<2 && share.through == nil)
        let sheet = try #require(snapshot.leakTrace(of: 4))
        #expect(sheet.states == [.notLeaking, .unknown, .unknown, .leaking, .leaking])
        #expect(sheet.suspects == 0..<3 && sheet.through == 3)

        let groups = snapshot.causeGroups()
        #expect(groups.map(\.cause.description) == ["App.router › Router.completions[] (capture) › Box.flow", "App.router › Router.completions[] (capture)"])
        #expect(groups.map(\.ids) == [[3], [2]] && groups[0].heldThrough.map(\.id) == [4])
        let json = CheckJSONReport.json(for: result)
        #expect(json.contains(#""field":"completions[12]","kind":"capture","leaking":"unknown","suspect":true}"#), "\(json)")
        #expect(json.contains(#""holder":"Flow","holderId":3,"field":"sheet","kind":"property","leaking":"yes","suspect":false}"#), "\(json)")
    }

    /// One array's leaks at different positions and from different lines are one cause; with no search, a child of a
    /// leaked parent goes with that parent.
    @Test func positionsAndLinesDoNotSplitACause() throws {
        var lines = [#"{"seq":1,"t":0,"event":"add","id":1,"type":"Home"}"#]
        for id in 2...5 {
            let type = id % 2 == 0 ? "Yellow" : "Green"
            lines.append(#"{"seq":\#(id),"t":0,"event":"add","id":\#(id),"type":"\#(type)","parent":1,"file":"Home.swift","line":\#(10 + id % 2)}"#)
            lines.append(#"{"seq":\#(10 + id),"t":1,"event":"dismiss","id":\#(id)}"#)
            lines.append(
                #"{"seq":\#(20 + id),"t":5,"event":"held","id":\#(id),"via":"live","count":3,"label":"Home\u001f1\u001fchildren[\#(id - 2)]\u001felement"}"#)
        }
        lines.append(#"{"seq":30,"t":0,"event":"add","id":6,"type":"Leaf","parent":5}"#)
        lines.append(#"{"seq":31,"t":1,"event":"dismiss","id":6}"#)
        lines.append(#"{"seq":32,"t":5,"event":"end"}"#)
        let result = try check(lines)
        let groups = result.sessions[0].snapshot.causeGroups()
        #expect(groups.count == 1, "\(groups)")
        #expect(groups.first?.cause.description == "Home.children[] (element)")
        #expect(groups.first?.ids == [2, 3, 4, 5])
        #expect(groups.first?.heldThrough == [CauseGroup.HeldThrough(id: 6, through: 5)], "no held line: the leaked parent holds it")
        let gcc = GCCReport.text(for: result).split(separator: "\n").map(String.init)
        #expect(gcc.filter { $0.contains(": error: ") }.count == 1, "\(gcc)")
        #expect(gcc.contains("Home.swift:11:1: note: 2 × Green added here, kept by the same cause"), "\(gcc)")
    }

    /// A dictionary's key is a position as an index is: one router's completions keyed by screen are one cause.
    @Test func keysDoNotSplitACause() throws {
        let result = try check([
            #"{"seq":1,"t":0,"event":"add","id":1,"type":"App"}"#,
            #"{"seq":2,"t":0,"event":"add","id":2,"type":"Share","parent":1}"#,
            #"{"seq":3,"t":0,"event":"add","id":3,"type":"Settings","parent":1}"#,
            #"{"seq":4,"t":1,"event":"remove","id":2,"parent":1}"#,
            #"{"seq":5,"t":1,"event":"remove","id":3,"parent":1}"#,
            #"{"seq":6,"t":5,"event":"held","id":2,"via":"live","count":3,"label":"App\u001f1\u001frouter.completions[String#5e0a7c]\u001fcapture"}"#,
            #"{"seq":7,"t":5,"event":"held","id":3,"via":"live","count":3,"label":"App\u001f1\u001frouter.completions[\"settings\"]\u001fcapture"}"#,
            #"{"seq":8,"t":5,"event":"end"}"#,
        ])
        let groups = result.sessions[0].snapshot.causeGroups()
        #expect(groups.map(\.cause.description) == ["App.router.completions[] (capture)"], "\(groups)")
        #expect(groups.first?.ids == [2, 3])
    }
}
