import CoordinatorLens
import CoordinatorTrace
import Foundation
import Testing

/// The Linux sweep over weak references, in slices: marks still come after every deallocation that happened before
/// them. (That no call waits for a whole pass is a timing figure: `make bench`, "longest single hook call".)
@Suite struct SweepTests {
    /// Thousands of coordinators freed before a mark, with screens bound to some of them: each one's deinit (and its
    /// screen's dismissal first) is in the stream before the mark, although the sweep takes the lock many times.
    @Test func everyDeathBeforeAMarkIsReportedBeforeItAcrossManySlices() throws {
        let tracer = Tracer()
        let sink = MemorySink()
        // A long tick: the mark's own sweep, not the writer's, must find the deaths.
        tracer.start(app: "Slices", sink: sink, options: TraceOptions(bufferCapacity: 1 << 20, tickInterval: 1))
        let root = Coordinator()
        tracer.added(root, to: nil)
        var children: [Coordinator]? = (0..<5_000).map { _ in Coordinator() }
        var screens: [Screen]? = (0..<1_000).map { _ in Screen() }
        for child in children! { tracer.added(child, to: root) }
        for (index, screen) in screens!.enumerated() { tracer.bind(children![index], to: screen) }
        let survivors = (0..<2_000).map { _ in Coordinator() }
        for survivor in survivors { tracer.added(survivor, to: root) }
        children = nil
        screens = nil
        tracer.mark("after")
        tracer.end()
        withExtendedLifetime((root, survivors)) {}
        let kinds = events(try session(from: sink))
        let markIndex = try #require(kinds.firstIndex(of: .mark(label: "after")))
        let deinits = kinds.indices.filter { if case .deinitialized = kinds[$0] { true } else { false } }
        #expect(deinits.count == 5_000)
        #expect(deinits.allSatisfy { $0 < markIndex }, "every death before the mark call is reported before the mark")
        for id in 2...1_001 {
            let dismissal = try #require(kinds.firstIndex { if case .dismiss(id: .init(id), _) = $0 { true } else { false } })
            let death = try #require(kinds.firstIndex(of: .deinitialized(id: .init(id))))
            #expect(dismissal < death, "a screen freed with its coordinator is dismissed first")
            if dismissal > death { break }
        }
    }
}
