#if !RetainerSearch
import CoordinatorLens
import CoordinatorTrace
import Testing

/// A build of the hook without the RetainerSearch trait keeps the tree and the verdicts, and says of each leak why
/// nothing says who holds it (`make test` builds and runs the hook's tests so, in a folder of its own).
@Suite struct BuildWithoutSearchTests {
    @Test func aLeakSaysTheBuildLeavesTheSearchOut() throws {
        let tracer = Tracer()
        let sink = MemorySink()
        tracer.start(app: "NoSearch", sink: sink, options: TraceOptions(grace: 0))
        let root = Coordinator()
        let child = Coordinator()
        tracer.added(root, to: nil)
        tracer.added(child, to: root)
        tracer.dismissed(child)
        let paths = tracer.searchRetainers()
        tracer.end()
        #expect(paths.map(\.outcome) == [.notSearched])
        let log = try session(from: sink)
        let snapshot = try log.snapshot(grace: 0)
        let held = try #require(snapshot.heldBy[2])
        #expect(held.outcome == .notSearched)
        #expect(held.reason == "this build leaves the search out (the package's RetainerSearch trait is off)")
        #expect(snapshot.nodes.first { $0.id == 2 }?.verdict == .retained, "the verdict does not need the search")
        withExtendedLifetime((root, child)) {}
    }
}
#endif
