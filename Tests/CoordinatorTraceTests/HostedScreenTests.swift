import CoordinatorLens
import CoordinatorTrace
import Foundation
import Testing

/// The screen `.coordinatorScreen(_:)` keeps in a SwiftUI view's state: bound on the first appearance only (a view
/// uncovered again is not shown anew), and its deallocation, when SwiftUI lets go of the view, dismisses the
/// coordinator even while something else keeps that one.
@Suite struct HostedScreenTests {
    @Test func theFirstAppearanceBindsAndTheViewsStateFreedDismisses() throws {
        let sink = MemorySink()
        let tracer = Tracer()
        tracer.start(app: "Hosted", sink: sink, options: TraceOptions(grace: 0.05))
        let coordinator = Coordinator()
        tracer.added(coordinator, to: nil)
        var screen: HostedScreen? = HostedScreen()
        screen!.appeared(for: coordinator, tracer: tracer)
        screen!.appeared(for: coordinator, tracer: tracer)
        screen = nil
        tracer.end()
        let log = try session(from: sink)
        let binds = records(log).filter { if case .bind = $0.event { true } else { false } }
        #expect(binds.count == 1, "uncovered again sends nothing")
        #expect(binds.first?.site?.file.hasSuffix("HostedScreenTests.swift") == true)
        #expect(binds.first?.event == .bind(id: 1, screen: "HostedScreen"))
        let node = try #require(try log.snapshot(grace: 0.05).node(1))
        #expect(node.dismissedVia == .screenFreed)
        #expect(node.verdict == .retained, "the test keeps the coordinator: the screen's departure made it done")
        withExtendedLifetime(coordinator) {}
    }
}
