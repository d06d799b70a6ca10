import CoordinatorLens
import CoordinatorLensRendering
import Foundation
import TestSupport
import Testing

/// The statement that declares node `c<id>`, if the DOT has one.
func nodeStatement(_ id: Int, in dot: String) -> String? {
    dot.split(separator: "\n").first { $0.hasPrefix("  c\(id) [") }.map(String.init)
}

/// The statement that declares the edge `c<parent> -> c<child>`, if the DOT has one.
func edgeStatement(_ parent: Int, _ child: Int, in dot: String) -> String? {
    dot.split(separator: "\n").first { $0.hasPrefix("  c\(parent) -> c\(child) [") }.map(String.init)
}

@Suite struct DOTWriterTests {
    let snapshot = Fixtures.shop()

    @Test func fixtureHasTheVerdictsTheTestsRelyOn() {
        let verdicts = snapshot.nodes.map { "\($0.id):\($0.verdict.rawValue)" }
        #expect(
            verdicts == [
                "1:alive", "2:alive", "3:retained", "4:released", "5:pending", "6:released", "7:retained", "8:late",
            ])
        #expect(snapshot.node(7)?.reasonKind == .outlivedParent)
    }

    @Test func retainedNodeIsFilledRedWithBoldRedEdgeFromItsHolder() throws {
        let dot = DOTWriter().write(snapshot)
        let node = try #require(nodeStatement(3, in: dot))
        #expect(node.contains("id=\"c3\""))
        #expect(node.contains("class=\"verdict-retained\""))
        #expect(node.contains("fillcolor=\"#cf222e\""))
        #expect(node.contains("fontcolor=\"#ffffff\""))
        let edge = try #require(edgeStatement(2, 3, in: dot))
        #expect(edge.contains("penwidth=3"))
        #expect(edge.contains("color=\"#e5484d\""))
        #expect(edge.contains("class=\"holds-retained\""))
    }

    @Test func otherVerdictsHaveTheirOwnLook() throws {
        let dot = DOTWriter(options: RenderOptions(showReleased: true)).write(snapshot)
        // An alive one states nothing of its look: the coordinators' subgraph has it as its defaults.
        let alive = try #require(nodeStatement(1, in: dot))
        #expect(!alive.contains("fillcolor") && !alive.contains("class="))
        #expect(dot.contains("  node [class=\"verdict-alive\", style=\"rounded,filled\", fillcolor=\"#ffffff\", color=\"#1f2328\""))
        let pending = try #require(nodeStatement(5, in: dot))
        #expect(pending.contains("fillcolor=\"#ffa94d\"") && pending.contains("class=\"verdict-pending\""))
        for id in [4, 8] {
            let gone = try #require(nodeStatement(id, in: dot))
            #expect(gone.contains("dashed") && gone.contains("color=\"#8c959f\""))
        }
        let plainEdge = try #require(edgeStatement(1, 2, in: dot))
        #expect(!plainEdge.contains("penwidth=3") && !plainEdge.contains("#e5484d"))
    }

    @Test func releasedAndLateAreHiddenByDefaultAndShownOnRequest() {
        let hidden = DOTWriter().write(snapshot)
        #expect(nodeStatement(4, in: hidden) == nil)
        #expect(nodeStatement(8, in: hidden) == nil)
        #expect(edgeStatement(1, 8, in: hidden) == nil)
        #expect(hidden.contains("1, none drawn"))

        let shown = DOTWriter(options: RenderOptions(showReleased: true)).write(snapshot)
        #expect(nodeStatement(4, in: shown)?.contains("class=\"verdict-released\"") == true)
        #expect(nodeStatement(8, in: shown)?.contains("class=\"verdict-late\"") == true)
        #expect(edgeStatement(1, 8, in: shown) != nil)
        #expect(!shown.contains("none drawn"))
    }

    /// A coordinator removed from its parent but kept alive elsewhere is drawn under the parent it left, with a dashed
    /// red edge, where its reason says it was, not as a root of its own.
    @Test func detachedLeakIsDrawnUnderItsFormerParent() throws {
        let snapshot = Fixtures.replay(
            [
                (0, .add(id: 1, type: "FeedCoordinator", parent: nil)),
                (0.1, .add(id: 2, type: "ChatCoordinator", parent: 1)),
                (0.2, .remove(id: 2, parent: 1)),
            ], at: 5)
        #expect(snapshot.node(2)?.reason?.hasPrefix("detached from FeedCoordinator#1; still alive") == true)
        let dot = DOTWriter().write(snapshot)
        let edge = try #require(edgeStatement(1, 2, in: dot))
        #expect(edge.contains("class=\"detached\"") && edge.contains("style=dashed") && edge.contains("#e5484d"))
    }

    @Test func deinitedParentOfALiveChildStaysGreyed() throws {
        let dot = DOTWriter().write(snapshot)
        let parent = try #require(nodeStatement(6, in: dot))
        #expect(parent.contains("class=\"verdict-released shown-as-ancestor\""))
        #expect(parent.contains("dashed"))
        let edge = try #require(edgeStatement(6, 7, in: dot))
        // Its parent is gone, so nothing in the tree holds it: not the red "holder" edge.
        #expect(edge.contains("style=dashed") && !edge.contains("penwidth=3"))
        #expect(nodeStatement(7, in: dot)?.contains("verdict-retained") == true)
    }

    @Test func deepReleasedChainsHideCompletelyButKeepThePathToALiveNode() {
        let snapshot = Fixtures.replay(
            [
                (0, .add(id: 1, type: "Root", parent: nil)),
                (0, .add(id: 2, type: "A", parent: 1)),
                (0, .add(id: 3, type: "B", parent: 2)),
                (0, .add(id: 4, type: "C", parent: 3)),
                (0, .add(id: 5, type: "D", parent: 2)),
                (1, .deinitialized(id: 4)),
                (1, .deinitialized(id: 3)),
                (1, .deinitialized(id: 2)),
                (1, .deinitialized(id: 1)),
            ], at: 10)
        let dot = DOTWriter().write(snapshot)
        #expect(snapshot.node(5)?.verdict == .retained)
        #expect(nodeStatement(3, in: dot) == nil)
        #expect(nodeStatement(4, in: dot) == nil)
        for id in [1, 2, 5] { #expect(nodeStatement(id, in: dot) != nil) }
        #expect(edgeStatement(2, 5, in: dot) != nil)
    }

    /// The reason and the age are the tooltip's: on the box they made a fitted picture unreadable.
    @Test func labelsShowTypeIdScreenAndVerdictAndTheTooltipWhy() throws {
        let dot = DOTWriter().write(snapshot)
        let node = try #require(nodeStatement(3, in: dot))
        let small = { (text: String) in "<FONT POINT-SIZE=\"10\">\(text)</FONT>" }
        #expect(node.contains("label=<<B>CheckoutCoordinator</B><BR/>\(small("#3 · CheckoutScreen"))<BR/>\(small("<B>retained</B>"))>"))
        #expect(node.contains("tooltip=\"CheckoutCoordinator#3 · CheckoutScreen\\nretained: still a child of TabCoordinator#2"))
        #expect(!node.contains("ago"))
        let alive = try #require(nodeStatement(1, in: dot))
        #expect(!alive.contains("<B>alive</B>") && !alive.contains("ago"))
        #expect(dot.contains("<B>Shop</B> · run run-1 · pid 42"))
        #expect(dot.contains("rankdir=TB") && dot.contains("newrank=true"))
    }

    @Test func outputIsDeterministicAndFollowsTreeOrder() {
        let writer = DOTWriter(options: RenderOptions(showReleased: true))
        let dot = writer.write(snapshot)
        #expect(dot == writer.write(Fixtures.shop()))
        let order = dot.split(separator: "\n").compactMap { line -> String? in
            guard line.hasPrefix("  c"), let space = line.firstIndex(of: " ", after: 2) else { return nil }
            return line.contains(" -> ") ? nil : String(line[line.index(line.startIndex, offsetBy: 2)..<space])
        }
        // Roots in order, each tree in children order; the removed Profile after its former parent's children.
        #expect(order == ["c1", "c2", "c3", "c5", "c4", "c6", "c7", "c8"])
    }

    @Test func nodesNoRootReachesAndNegativeIDsAreStillDrawn() throws {
        // A hand-edited snapshot file: node 9 is in no root's tree, and the root has a negative id.
        let json = """
            {"app": "a", "run": "r", "evaluatedAt": 5, "grace": 2, "roots": [-3], "nodes": [
              {"id": -3, "type": "Negative", "children": [], "addedAt": 0, "verdict": "alive"},
              {"id": 9, "type": "Stray", "parent": 99, "children": [], "addedAt": 0, "doneAt": 0,
               "verdict": "retained", "reasonKind": "detached"}]}
            """
        let snapshot = try JSONDecoder().decode(Snapshot.self, from: Data(json.utf8))
        #expect(nodeStatement(9, in: DOTWriter().write(snapshot))?.contains("verdict-retained") == true)
        let svg = try SVGElement.parse(SnapshotRenderer.render(snapshot, format: .svg))
        #expect(svg.element(id: "c9")?.classes == ["node", "verdict-retained"])
        #expect(svg.element(id: "cn3")?.texts.contains("Negative") == true)
    }
}

extension StringProtocol {
    fileprivate func firstIndex(of character: Character, after offset: Int) -> Index? {
        self[index(startIndex, offsetBy: offset)...].firstIndex(of: character)
    }
}

@Suite struct LeaksOnlyTests {
    @Test func keepsLeaksTheirSubtreesAndThePathsToThemAndNothingElse() {
        // shop(): 3 retained under 2 under 1; 7 retained under deinited 6 under 1; 5 pending under 2; 8 late under 1.
        var options = RenderOptions()
        options.leaksOnly = true
        let dot = DOTWriter(options: options).write(Fixtures.shop())
        let drawn = (1...8).filter { nodeStatement($0, in: dot) != nil }
        #expect(drawn == [1, 2, 3, 6, 7])
        #expect(edgeStatement(6, 7, in: dot) != nil, "the path runs through the deinited parent the reason names")
    }

    @Test func aSubtreeBelowALeakIsKeptWhole() {
        let snapshot = Fixtures.replay(
            [
                (0, .add(id: 1, type: "AppCoordinator", parent: nil)),
                (0.1, .add(id: 2, type: "FeedCoordinator", parent: 1)),
                (0.2, .add(id: 3, type: "FeedItemCoordinator", parent: 2)),
                (0.3, .add(id: 4, type: "SettingsCoordinator", parent: 1)),
                (0.4, .add(id: 5, type: "AccountCoordinator", parent: 4)),
                (1, .dismiss(id: 4)),
            ], at: 10)
        var options = RenderOptions()
        options.leaksOnly = true
        let dot = DOTWriter(options: options).write(snapshot)
        #expect((1...5).filter { nodeStatement($0, in: dot) != nil } == [1, 4, 5])
    }
}
