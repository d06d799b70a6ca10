#if RetainerSearch
// The search's own tests: a build without the RetainerSearch trait has no search to test.
import CoordinatorLens
import CoordinatorTrace
import Testing

/// A tab coordinator that keeps itself in a cycle through its item's closure, and its children with it.
private final class TabCoordinator {
    var children: [Coordinator] = []
    var onSelect: (() -> Void)?
}

/// A leak held only by another leak: the search starts from living coordinators and screens, which do not reach it,
/// so it used to read "attached under Tab#2, which does not hold it: no living coordinator or screen does" and
/// "nothing … holds it: a global or static …", both false. Now the search looks from the other leaks last.
@Suite struct HeldThroughLeakTests {
    @Test func childrenOfALeakedParentAreHeldThroughIt() throws {
        let tracer = Tracer()
        let sink = MemorySink()
        tracer.start(app: "Tabs", sink: sink, options: TraceOptions(grace: 0))
        let app = Coordinator()
        tracer.added(app, to: nil)
        var tab: TabCoordinator? = TabCoordinator()
        tracer.added(tab!, to: app)
        for _ in 0..<5 {
            let child = Coordinator()
            tab!.children.append(child)
            tracer.added(child, to: tab!)
            tracer.dismissed(child)
        }
        tab!.onSelect = { [tab] in _ = tab?.children.count }
        tracer.removed(tab!, from: app)
        tab = nil
        let paths = tracer.searchRetainers()
        tracer.end()

        #expect(paths.count == 6, "\(paths)")
        let tabPath = try #require(paths.first { $0.coordinator == 2 })
        #expect(tabPath.outcome == .cycle, "\(tabPath)")
        for path in paths where path.coordinator != 2 {
            #expect(path.outcome == .live, "\(path)")
            #expect(path.steps.first?.holder == "TabCoordinator" && path.steps.first?.holderID == 2, "\(path)")
        }

        let log = try session(from: sink)
        let snapshot = try log.snapshot(grace: 0)
        for id in 3...7 {
            let node = try #require(snapshot.nodes.first { $0.id == CoordinatorID(id) })
            #expect(node.verdict == .retained)
            #expect(node.reason == "still a child of TabCoordinator#2", "no false 'does not hold it': \(node.reason ?? "")")
        }
        let report = LeakReport.text(for: SessionCheck(source: "", snapshot: snapshot, atEnd: true))
        #expect(report.components(separatedBy: "held through TabCoordinator#2, itself retained").count == 6, "\(report)")
        #expect(!report.contains("a global or static"), "\(report)")
        withExtendedLifetime(app) {}
    }

    /// The parent is a leak the search never started from: "unreachable" says nothing of it, so the reason stays what
    /// the tree says, not "which does not hold it".
    @Test func unreachableRulesOutOnlyALivingParent() throws {
        let tracer = Tracer()
        let sink = MemorySink()
        tracer.start(app: "Kept", sink: sink, options: TraceOptions(grace: 0))
        let app = Coordinator()
        let parent = Coordinator()
        let child = Coordinator()
        tracer.added(app, to: nil)
        tracer.added(parent, to: app)
        tracer.added(child, to: parent)
        tracer.dismissed(child)
        tracer.dismissed(parent)
        // Both kept by this test's own variables, which no search can see.
        tracer.end()
        let snapshot = try session(from: sink).snapshot(grace: 0)
        #expect(snapshot.heldBy[3]?.outcome == .unreachable)
        #expect(snapshot.nodes.first { $0.id == 3 }?.reason == "still a child of Coordinator#2")
        withExtendedLifetime((app, parent, child)) {}
    }
}
#endif
