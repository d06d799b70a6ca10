import CoordinatorLens
import Testing

@testable import CoordinatorLensRendering

/// How a big tree is drawn by default: leaks and the paths to them as themselves, the rest as counted summaries.
@Suite struct CollapseTests {
    /// A 4-ary tree of `size` coordinators under AppCoordinator#1, each level's children of one type per parent
    /// position; the coordinators in `leaks` are dismissed at 1 s and never deinited (retained at 10 s).
    static func tree(size: Int, leaks: [Int]) -> Snapshot {
        var events: [(Double, Event)] = [(0, .add(id: 1, type: "AppCoordinator", parent: nil))]
        let types = ["FeedCoordinator", "ProfileCoordinator", "SettingsCoordinator", "ItemCoordinator"]
        for id in 2...size {
            events.append((0.001, .add(id: CoordinatorID(id), type: types[(id - 2) % 4], parent: CoordinatorID((id - 2) / 4 + 1))))
        }
        for id in leaks { events.append((1, .dismiss(id: CoordinatorID(id)))) }
        return Fixtures.replay(events, at: 10)
    }

    /// The ids of `c<n>` coordinator nodes and the statements of `g…` summary nodes in `dot`.
    static func drawn(_ dot: String) -> (coordinators: Set<Int>, summaries: [String]) {
        var coordinators = Set<Int>()
        var summaries: [String] = []
        for line in dot.split(separator: "\n") {
            if line.hasPrefix("  c"), let end = line.firstIndex(of: " ", after: 3), let id = Int(line[line.index(line.startIndex, offsetBy: 3)..<end]) {
                coordinators.insert(id)
            } else if line.hasPrefix("  gc") {
                summaries.append(String(line))
            }
        }
        return (coordinators, summaries)
    }

    /// The ancestors of `id` in `tree(size:leaks:)`, root first.
    static func path(to id: Int) -> [Int] {
        var chain = [id]
        while chain[0] > 1 { chain.insert((chain[0] - 2) / 4 + 1, at: 0) }
        return chain
    }

    @Test func aThousandNodesWithThreeLeaksDrawTheLeaksTheirPathsAndCountsOfTheRest() throws {
        let leaks = [37, 402, 977]
        let snapshot = Self.tree(size: 1_000, leaks: leaks)
        #expect(snapshot.retained.map(\.id) == leaks.map { CoordinatorID($0) })
        let dot = DOTWriter().write(snapshot)
        let (coordinators, summaries) = Self.drawn(dot)
        let kept = Set(leaks.flatMap(Self.path))
        #expect(kept.isSubset(of: coordinators), "the leaks and every ancestor of one are drawn as themselves")
        // Besides those, only lone leaves beside them are (a summary of one would say less than the node itself).
        for extra in coordinators.subtracting(kept) {
            #expect(extra * 4 - 2 > 1_000, "#\(extra) has children, so it should be summarised")
            #expect(kept.contains((extra - 2) / 4 + 1), "#\(extra) sits beside the path")
        }
        #expect(coordinators.count + summaries.count < 60, "fits on one screen: \(coordinators.count) + \(summaries.count)")
        // Every coordinator is drawn or counted in exactly one summary.
        let counted = summaries.reduce(0) { total, summary in
            let members = summary.firstMatch(of: /×(\d+)<\/B>/).map { Int($0.1)! } ?? 1
            let below = summary.firstMatch(of: /(\d[\d,]*) more below/).map { Int($0.1.replacing(",", with: ""))! } ?? 0
            return total + members + below
        }
        #expect(counted + coordinators.count == 1_000)
        #expect(dot.contains("big tree: "))
        #expect(dot.contains("--all draws every one"))
    }

    @Test func siblingsOfOneTypeShareASummaryUnlessGroupingIsOff() throws {
        // A wide tree: 500 feed items side by side under the root, and one leak beside them.
        var events: [(Double, Event)] = [(0, .add(id: 1, type: "AppCoordinator", parent: nil))]
        for id in 2...501 { events.append((0.001, .add(id: CoordinatorID(id), type: "FeedItemCoordinator", parent: 1))) }
        events.append((0.002, .add(id: 502, type: "CheckoutCoordinator", parent: 1)))
        events.append((1, .dismiss(id: 502)))
        let snapshot = Fixtures.replay(events, at: 10)

        let grouped = Self.drawn(DOTWriter().write(snapshot))
        #expect(grouped.coordinators == [1, 502])
        #expect(grouped.summaries.count == 1)
        #expect(grouped.summaries.first?.contains("FeedItemCoordinator ×500") == true)
        #expect(grouped.summaries.first?.contains("all alive") == true)

        var options = RenderOptions()
        options.groupsSiblings = false
        let dot = DOTWriter(options: options).write(snapshot)
        let ungrouped = Self.drawn(dot)
        // Lone leaves are drawn as themselves (a summary of one would say less), up to the cap: the leak first, the
        // rest counted.
        #expect(ungrouped.coordinators.count == DrawingBounds.standard.maximumItems)
        #expect(ungrouped.coordinators.contains(502))
        #expect(dot.contains("<B>2 more not drawn</B>"))
        #expect(ungrouped.summaries.isEmpty)
    }

    @Test func allDrawsEveryNodeAndSmallTreesNeverCollapse() {
        let snapshot = Self.tree(size: 1_000, leaks: [37])
        var options = RenderOptions()
        options.collapseThreshold = .max
        let all = Self.drawn(DOTWriter(options: options).write(snapshot))
        #expect(all.coordinators.count == 1_000)
        #expect(all.summaries.isEmpty)

        let small = Self.drawn(DOTWriter().write(Self.tree(size: 300, leaks: [37])))
        #expect(small.coordinators.count == 300)
        #expect(small.summaries.isEmpty)
    }

    @Test func summariesRenderThroughGraphvizWithTheirOwnIdsAndClass() throws {
        let svg = try SnapshotRenderer.render(Self.tree(size: 1_000, leaks: [37, 402, 977]), format: .svg)
        let text = String(decoding: svg, as: UTF8.self)
        #expect(text.contains("class=\"node summary\""))
        #expect(text.contains("id=\"c977\""))
        #expect(!text.contains("id=\"c978\""))
    }
}

extension Substring {
    fileprivate func firstIndex(of character: Character, after offset: Int) -> Index? {
        self[index(startIndex, offsetBy: offset)...].firstIndex(of: character)
    }
}

/// Diff pictures collapse unchanged subtrees the way trees collapse leak-free ones, and big diffs skip `dot`.
@Suite struct DiffCollapseTests {
    @Test func aBigDiffDrawsTheNewLeakAndItsPathAndSummarisesWhatDidNotChange() {
        let a = CollapseTests.tree(size: 1_000, leaks: [37])
        let b = CollapseTests.tree(size: 1_000, leaks: [37, 500])
        let diff = TreeDiff(a, b)
        let document = DiffDOTWriter().document(for: diff)
        let entryOf = { (id: Int) in diff.entries.firstIndex { diff.nodeB($0)?.id == CoordinatorID(id) }! }
        for id in CollapseTests.path(to: 500) + CollapseTests.path(to: 37) {
            #expect(document.text.contains("  n\(entryOf(id)) ["), "#\(id) is on the way to a change")
        }
        #expect(document.text.contains("class=\"summary\""))
        #expect(document.text.contains("big diff: "))
        #expect(document.layout == .dot, "a collapsed diff is small enough for dot")

        var all = DiffDOTWriter()
        all.collapseThreshold = .max
        let everything = all.document(for: diff)
        #expect(!everything.text.contains("class=\"summary\""))
        let nodeStatements = everything.text.split(separator: "\n").filter {
            $0.hasPrefix("  n") && $0.dropFirst(3).first?.isNumber == true && !$0.contains(" -> ")
        }
        #expect(nodeStatements.count == 1_000)
    }

    @Test(.timeLimit(.minutes(2)))
    func aTwentyThousandNodeDiffDrawnWholeIsLaidOutWithoutDot() throws {
        let a = CollapseTests.tree(size: 20_000, leaks: [37])
        let b = CollapseTests.tree(size: 20_000, leaks: [37, 500])
        let svg = try DiffRenderer.render(TreeDiff(a, b), format: .svg, all: true)
        #expect(String(decoding: svg, as: UTF8.self).contains("id=\"n19999\""))
    }
}

/// `--focus` and `--depth`: one part of a big tree, or its top.
@Suite struct FocusAndDepthTests {
    @Test func focusOnAnIdDrawsItsSubtreeAndItsPathOnly() {
        var options = RenderOptions()
        options.focus = "101"
        let (coordinators, summaries) = CollapseTests.drawn(DOTWriter(options: options).write(CollapseTests.tree(size: 1_000, leaks: [402])))
        // #101's children are 402...405; its ancestors 1, 2, 6, 25.
        #expect(coordinators == [1, 2, 6, 25, 101, 402, 403, 404, 405])
        #expect(summaries.isEmpty)
    }

    @Test func focusOnATypeDrawsEveryOneOfIt() {
        var options = RenderOptions()
        options.focus = "SettingsCoordinator"
        options.collapseThreshold = .max
        let dot = DOTWriter(options: options).write(CollapseTests.tree(size: 21, leaks: []))
        let (coordinators, _) = CollapseTests.drawn(dot)
        // Settings are the third child of each parent: #4 (under 1, with #14...#17 below it), #8, #12, #16, #20
        // (under 2, 3, 4, 5); their ancestors come along.
        #expect(coordinators == [1, 2, 3, 4, 5, 8, 12, 14, 15, 16, 17, 20])
    }

    @Test func depthDrawsTheTopAndSummarisesBelowKeepingLeaksCounted() {
        var options = RenderOptions()
        options.depth = 1
        let dot = DOTWriter(options: options).write(CollapseTests.tree(size: 100, leaks: [37]))
        let (coordinators, summaries) = CollapseTests.drawn(dot)
        #expect(coordinators == [1, 2, 3, 4, 5])
        #expect(summaries.count == 4 || summaries.count == 16, "\(summaries.count)")
        #expect(summaries.contains { $0.contains("1 retained") && $0.contains("holds-retained") }, "#37 is counted, in red")
        #expect(dot.contains("below depth 1"))
    }
}
