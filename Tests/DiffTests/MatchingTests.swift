import CoordinatorLens
import Testing

@Suite("Matching coordinators across runs")
struct MatchingTests {
    @Test("the same flow with other ids matches node for node")
    func differentIDs() {
        let a = ShopFlow.run("a", firstID: 1, leaksCheckout: false).snapshot
        let b = ShopFlow.run("b", firstID: 500, leaksCheckout: false).snapshot
        #expect(Set(a.nodes.map(\.id)).isDisjoint(with: b.nodes.map(\.id)))

        let diff = TreeDiff(a, b)
        #expect(diff.entries.count == a.nodes.count)
        #expect(diff.markerCounts == [.unchanged: a.nodes.count])
        #expect(diff.summary == TreeDiff.Summary(unchanged: a.nodes.count))
        for entry in diff.entries {
            let nodeA = try! #require(diff.nodeA(entry))
            let nodeB = try! #require(diff.nodeB(entry))
            #expect(nodeB.id.number == nodeA.id.number + 499)
        }
    }

    @Test("siblings of different types match whatever order they were added in")
    func reorderedSiblings() {
        var first = RunRecording(run: "a")
        let app = first.add("AppCoordinator", under: nil)
        first.add("FeedCoordinator", under: app)
        first.add("ProfileCoordinator", under: app)
        first.add("SearchCoordinator", under: app)
        var second = RunRecording(run: "b", firstID: 40)
        let root = second.add("AppCoordinator", under: nil)
        second.add("SearchCoordinator", under: root)
        second.add("ProfileCoordinator", under: root)
        second.add("FeedCoordinator", under: root)

        let diff = TreeDiff(first.snapshot, second.snapshot)
        #expect(diff.markerCounts == [.unchanged: 4])
        // Display follows B's order.
        let children = diff.entries[diff.roots[0]].children.map { diff.entries[$0].type }
        #expect(children == ["SearchCoordinator", "ProfileCoordinator", "FeedCoordinator"])
    }

    @Test("same-type siblings match by ordinal; the extra one is added")
    func ordinals() {
        let a = ShopFlow.run("a", leaksCheckout: false, feeds: 2).snapshot
        let b = ShopFlow.run("b", firstID: 9, leaksCheckout: false, feeds: 3).snapshot
        let diff = TreeDiff(a, b)
        #expect(diff.entry(at: "AppCoordinator/MainTabCoordinator/FeedCoordinator[0]")?.marker == .unchanged)
        #expect(diff.entry(at: "AppCoordinator/MainTabCoordinator/FeedCoordinator[1]")?.marker == .unchanged)
        #expect(diff.entry(at: "AppCoordinator/MainTabCoordinator/FeedCoordinator[2]")?.marker == .added)
        #expect(diff.summary.added == 1)
        #expect(diff.summary.gone == 0)
    }

    @Test("children match only under matched parents")
    func childrenFollowParents() {
        var first = RunRecording(run: "a")
        let app = first.add("AppCoordinator", under: nil)
        let home = first.add("HomeCoordinator", under: app)
        first.add("DetailCoordinator", under: home)
        var second = RunRecording(run: "b", firstID: 20)
        let root = second.add("AppCoordinator", under: nil)
        let search = second.add("SearchCoordinator", under: root)
        second.add("DetailCoordinator", under: search)

        let diff = TreeDiff(first.snapshot, second.snapshot)
        #expect(diff.entry(at: "AppCoordinator[0]")?.marker == .unchanged)
        #expect(diff.entry(at: "AppCoordinator/HomeCoordinator/DetailCoordinator[0]")?.marker == .gone)
        #expect(diff.entry(at: "AppCoordinator/SearchCoordinator/DetailCoordinator[0]")?.marker == .added)
        #expect(diff.summary == TreeDiff.Summary(added: 2, gone: 2, unchanged: 1))
    }

    @Test("a removed coordinator matches under the parent it left, where the kept one still hangs")
    func detachedUnderFormerParent() {
        let a = ShopFlow.run("a", leaksCheckout: true).snapshot
        let b = ShopFlow.run("b", firstID: 70, leaksCheckout: false).snapshot
        #expect(b.roots.count == 2, "in B the checkout was removed, so the tree itself shows it as a root")

        let diff = TreeDiff(a, b)
        #expect(diff.roots.count == 1)
        let checkout = try! #require(diff.entry(at: "AppCoordinator/MainTabCoordinator/CheckoutCoordinator[0]"))
        #expect(diff.nodeA(checkout)?.verdict == .retained)
        #expect(diff.nodeB(checkout)?.verdict == .released)
        #expect(diff.summary.added == 0 && diff.summary.gone == 0)
    }

    @Test("type paths print ancestors' ordinals only when not 0, and the coordinator's own always")
    func typePathText() {
        let path = TypePath([
            .init(type: "AppCoordinator", ordinal: 0), .init(type: "MainTabCoordinator", ordinal: 0),
            .init(type: "FeedCoordinator", ordinal: 0),
        ])
        #expect(path.description == "AppCoordinator/MainTabCoordinator/FeedCoordinator[0]")
        #expect(TypePath([.init(type: "A", ordinal: 0), .init(type: "B", ordinal: 2), .init(type: "C", ordinal: 1)]).description == "A/B[2]/C[1]")
        #expect(path.types == ["AppCoordinator", "MainTabCoordinator", "FeedCoordinator"])
    }

    @Test("a move under a detached coordinator's own former parent's descendant is refused, and every path starts at the root")
    func formerParentCycle() {
        var run = RunRecording(run: "a")
        let first = run.add("FirstCoordinator", under: nil)
        let second = run.add("SecondCoordinator", under: first)
        run.remove(second, from: first)
        // Second hangs under First, the parent it left; First under Second would make the links cycle.
        run.move(first, "FirstCoordinator", under: second)
        let snapshot = run.snapshot
        #expect(snapshot.warnings.map(\.line) == [5])
        #expect(snapshot.warnings.first?.message.contains("parent cycle through SecondCoordinator#2's former parent") == true)

        let index = TypePathIndex(snapshot)
        #expect(index.roots.count == 1)
        #expect(Set(snapshot.nodes.indices.map { index.path(of: $0).description }).count == 2)
        let diff = TreeDiff(snapshot, snapshot)
        #expect(diff.markerCounts == [.unchanged: 2])
    }
}
