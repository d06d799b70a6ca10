import CoordinatorLens
import Testing

@testable import CoordinatorLensRendering

/// The default picture stays small whatever the shape: wide rows group, long paths are elided, and a cap counts the
/// rest; `--all` draws every coordinator.
@Suite struct BoundedDrawingTests {
    /// App#1 › Tab#2 › Router#3 holding `leaked` products (#4…), all dismissed and never freed, and beside the
    /// router Profile, Settings, Orders and Help, alive.
    static func routerTree(leaked: Int) -> Snapshot {
        var events: [(Double, Event)] = [
            (0, .add(id: 1, type: "AppCoordinator", parent: nil)),
            (0, .add(id: 2, type: "TabCoordinator", parent: 1)),
            (0, .add(id: 3, type: "RouterCoordinator", parent: 2)),
        ]
        for id in 4..<(4 + leaked) { events.append((0.1, .add(id: CoordinatorID(id), type: "ProductCoordinator", parent: 3))) }
        for (offset, type) in ["ProfileCoordinator", "SettingsCoordinator", "OrdersCoordinator", "HelpCoordinator"].enumerated() {
            events.append((0.2, .add(id: CoordinatorID(100 + offset), type: type, parent: 2)))
        }
        for id in 4..<(4 + leaked) { events.append((1, .dismiss(id: CoordinatorID(id)))) }
        return Fixtures.replay(events, at: 10)
    }

    @Test func thirtyLeakedSiblingsDrawAsOneGroupInATreeOfThirtySeven() throws {
        let snapshot = Self.routerTree(leaked: 30)
        #expect(snapshot.nodes.count == 37)
        #expect(snapshot.retained.count == 30)
        let dot = DOTWriter().write(snapshot)
        let (coordinators, summaries) = CollapseTests.drawn(dot)
        #expect(coordinators == [1, 2, 3, 100, 101, 102, 103], "every product is in the group: \(coordinators.sorted())")
        #expect(summaries.count == 1)
        let group = try #require(summaries.first)
        #expect(group.contains("ProductCoordinator ×30"))
        #expect(group.contains("all retained"))
        #expect(group.contains("holds-retained"), "the group is outlined as a leak")
        #expect(dot.contains("class=\"holds-retained summary\""), "its edge is the red one of a holder")
        #expect(group.contains("#4 … #33"), "the tooltip names the first and the last")

        // Drawn whole, or below the target width, each product keeps its node.
        var all = RenderOptions()
        all.collapseThreshold = .max
        #expect(CollapseTests.drawn(DOTWriter(options: all).write(snapshot)).coordinators.count == 37)
        let few = CollapseTests.drawn(DOTWriter().write(Self.routerTree(leaked: 3)))
        #expect(few.coordinators == [1, 2, 3, 4, 5, 6, 100, 101, 102, 103])
        #expect(few.summaries.isEmpty)
    }

    @Test func theGroupRendersThroughGraphvizAsOneNode() throws {
        let svg = String(decoding: try SnapshotRenderer.render(Self.routerTree(leaked: 30), format: .svg), as: UTF8.self)
        #expect(svg.contains("id=\"gc4\""))
        #expect(!svg.contains("id=\"c5\""))
        #expect(svg.contains("ProductCoordinator ×30"))
    }

    @Test func interleavedLeaksOfOneTypeGroupWithTheCountOfTheOnesBetween() throws {
        // A hub with 2,000 children, every tenth dismissed and never freed.
        var events: [(Double, Event)] = [(0, .add(id: 1, type: "HubCoordinator", parent: nil))]
        for id in 2...2_001 { events.append((0.1, .add(id: CoordinatorID(id), type: "SpokeCoordinator", parent: 1))) }
        for id in stride(from: 10, through: 2_001, by: 10) { events.append((1, .dismiss(id: CoordinatorID(id)))) }
        let dot = DOTWriter().write(Fixtures.replay(events, at: 10))
        let (coordinators, summaries) = CollapseTests.drawn(dot)
        #expect(coordinators == [1])
        #expect(summaries.count == 2, "\(summaries.count)")
        let leaks = try #require(summaries.first { $0.contains("all retained") })
        #expect(leaks.contains("SpokeCoordinator ×200"))
        // #10 … #2000 span 1,991 siblings, 200 of them leaks.
        #expect(leaks.contains("1,791 others between them"))
        let alive = try #require(summaries.first { $0.contains("all alive") })
        #expect(alive.contains("SpokeCoordinator ×1,800"))
    }

    /// A chain `depth` deep, every step dismissed and never freed.
    static func leakingChain(depth: Int) -> Snapshot {
        var events: [(Double, Event)] = [(0, .add(id: 1, type: "AppCoordinator", parent: nil))]
        for id in 2...depth { events.append((0.1, .add(id: CoordinatorID(id), type: "StepCoordinator", parent: CoordinatorID(id - 1)))) }
        for id in 2...depth { events.append((1, .dismiss(id: CoordinatorID(id)))) }
        return Fixtures.replay(events, at: 10)
    }

    @Test func theMiddleOfALongPathIsOneNodeThatCountsIt() throws {
        let bounds = DrawingBounds.standard
        let dot = DOTWriter().write(Self.leakingChain(depth: 10_000))
        let (coordinators, summaries) = CollapseTests.drawn(dot)
        #expect(summaries.isEmpty)
        let top = Set(1...bounds.keptAbove)
        let bottom = Set((10_000 - bounds.keptBelow + 1)...10_000)
        #expect(coordinators == top.union(bottom), "\(coordinators.sorted())")
        let elided = 10_000 - top.count - bottom.count
        #expect(dot.contains("… \(NumberText.grouped(elided)) more …"))
        // Every step of this chain is a leak: its middle is drawn as one, red, counting them.
        #expect(dot.contains("class=\"omission holds-retained\""))
        #expect(dot.contains("coordinators in the middle of long paths"), "the banner says so")
        #expect(dot.contains("(\(NumberText.grouped(elided)) retained among them)"))
        // A path just short of the bound is drawn whole.
        let short = CollapseTests.drawn(DOTWriter().write(Self.leakingChain(depth: bounds.longestPath)))
        #expect(short.coordinators.count == bounds.longestPath)
        #expect(!DOTWriter().write(Self.leakingChain(depth: bounds.longestPath)).contains("class=\"omission\""))
    }

    @Test func aPictureOfManyLeaksIsCappedAndCountsTheRest() throws {
        // A 4-ary tree of 5,000 coordinators, every one but the root retained: all of them matter.
        var events: [(Double, Event)] = [(0, .add(id: 1, type: "AppCoordinator", parent: nil))]
        let types = ["FeedCoordinator", "ProfileCoordinator", "SettingsCoordinator", "ItemCoordinator"]
        for id in 2...5_000 { events.append((0.1, .add(id: CoordinatorID(id), type: types[(id - 2) % 4], parent: CoordinatorID((id - 2) / 4 + 1)))) }
        for id in 2...5_000 { events.append((1, .dismiss(id: CoordinatorID(id)))) }
        let dot = DOTWriter().write(Fixtures.replay(events, at: 10))
        let (coordinators, _) = CollapseTests.drawn(dot)
        #expect(coordinators.count == DrawingBounds.standard.maximumLeadItems)
        // Leaks come first, level by level: the first 800 ids of a 4-ary tree numbered breadth-first.
        #expect(coordinators == Set(1...800))
        var counted = 0
        for match in dot.matches(of: /<B>([\d,]+) more not drawn<\/B>/) { counted += Int(match.1.replacing(",", with: ""))! }
        #expect(counted + coordinators.count == 5_000, "every coordinator is drawn or counted once")
        #expect(
            dot.contains(
                "capped at 500 nodes (800 for leaks and their paths): 4,200 coordinators not drawn, only counted, 4,200 retained among them"))
        // What hides a leak is drawn as a leak is, and says how many.
        #expect(!dot.contains("class=\"omission\""), "every count here holds a leak")
        #expect(dot.contains("class=\"omission holds-retained\""))
        #expect(dot.contains(" retained among them; --all draws every one"))
    }

    /// Issue 52's app: 10 features of 10 flows of 10 screens of 99 leaves (100,111 coordinators), 300 leaves
    /// retained across the screens. Taken level by level with the rest, the cap was spent before the first leak.
    @Test func everyLeakOfABigAppIsDrawnWithItsPath() throws {
        let (snapshot, leaked) = Self.bigApp()
        #expect(snapshot.nodes.count == 100_111 && snapshot.retained.count == 300)
        let dot = DOTWriter().write(snapshot)
        let (coordinators, summaries) = CollapseTests.drawn(dot)
        #expect(Set(leaked).isSubset(of: coordinators), "\(Set(leaked).subtracting(coordinators).count) leaks not drawn")
        // Each with its path: every ancestor of a leak is drawn as itself.
        let parentOf = Dictionary(uniqueKeysWithValues: snapshot.nodes.map { ($0.id.number, $0.parent?.number) })
        for id in leaked {
            var above = parentOf[id] ?? nil
            while let at = above {
                #expect(coordinators.contains(at))
                above = parentOf[at] ?? nil
            }
        }
        #expect(!dot.contains("class=\"omission holds-retained\""), "no count hides a leak")
        #expect(!summaries.contains { $0.contains("retained") }, "no summary hides a leak")
        #expect(dot.contains("capped at 500 nodes"), "the rest of the app is counted")
    }

    /// A coordinator the page picks (a search result, an id) is drawn with its path in that same big app, where the
    /// cap had left it in a "not drawn" count and the picture never changed.
    @Test func aPickedCoordinatorOfABigAppIsDrawnWithItsPath() throws {
        let (snapshot, _) = Self.bigApp()
        var options = RenderOptions()
        options.revealed = [CoordinatorID(90_000)]
        let (coordinators, _) = CollapseTests.drawn(DOTWriter(options: options).write(snapshot))
        let parentOf = Dictionary(uniqueKeysWithValues: snapshot.nodes.map { ($0.id.number, $0.parent?.number) })
        var path: [Int] = [90_000]
        while let above = parentOf[path.last!] ?? nil { path.append(above) }
        #expect(Set(path).isSubset(of: coordinators), "\(path.filter { !coordinators.contains($0) }) not drawn")
        #expect(!CollapseTests.drawn(DOTWriter().write(snapshot)).coordinators.contains(90_000), "without the pick it is not drawn")
    }

    /// Issue 52's app (see everyLeakOfABigAppIsDrawnWithItsPath) and its 300 retained leaves.
    static func bigApp() -> (snapshot: Snapshot, leaked: [Int]) {
        var events: [(Double, Event)] = [(0, .add(id: 1, type: "AppCoordinator", parent: nil))]
        var nextID = 1
        var leaves: [Int] = []
        func add(_ type: String, under parent: Int) -> Int {
            nextID += 1
            events.append((0.1, .add(id: CoordinatorID(nextID), type: type, parent: CoordinatorID(parent))))
            return nextID
        }
        for feature in 0..<10 {
            let featureID = add("Feature\(feature)Coordinator", under: 1)
            for flow in 0..<10 {
                let flowID = add("Flow\(flow)Coordinator", under: featureID)
                for screen in 0..<10 {
                    let screenID = add("Screen\(screen)Coordinator", under: flowID)
                    for leaf in 0..<99 { leaves.append(add("Leaf\(leaf % 20)Coordinator", under: screenID)) }
                }
            }
        }
        let leaked = stride(from: 17, to: leaves.count, by: leaves.count / 300).prefix(300).map { leaves[$0] }
        for id in leaked { events.append((1, .dismiss(id: CoordinatorID(id)))) }
        return (Fixtures.replay(events, at: 10), leaked)
    }
}
