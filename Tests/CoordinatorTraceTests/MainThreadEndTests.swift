import CoordinatorLens
import Foundation
import TestSupport
import Testing

@testable import CoordinatorTrace

/// `end()` on the main thread fits the OS's few seconds: bounded by `TraceOptions.mainThreadEndBudget` in total, its
/// writer still delivering afterwards.
@Suite struct MainThreadEndTests {
    @Test func endOnTheMainThreadReturnsWithinItsBudget() throws {
        let tracer = Tracer()
        let sink = MemorySink()
        // A leak in the making with a 30 s grace: off the main thread `end()` would wait all of it.
        tracer.start(app: "MainEnd", sink: sink, options: TraceOptions(grace: 30, mainThreadEndBudget: 0.5))
        let root = Coordinator()
        let child = Coordinator()
        tracer.added(root, to: nil)
        tracer.added(child, to: root)
        tracer.dismissed(child)
        let started = Date()
        tracer.end(onMainThread: true)
        let took = Date().timeIntervalSince(started)
        #expect(took < 2.5, "end() held the main thread \(took) s against a 0.5 s budget")
        #expect(waitUntil(seconds: 10) { sink.isClosed }, "the writer finished delivering after end() returned")
        let all = events(try session(from: sink))
        #expect(all.last == .end)
        #expect(!all.contains(.deinitialized(id: 2)))
        withExtendedLifetime((root, child)) {}
    }

    @Test func exitWaitsForAWriterStillDeliveringAfterEnd() {
        let tracer = Tracer()
        let sink = MemorySink()
        tracer.start(app: "MainEndExit", sink: sink, options: TraceOptions(mainThreadEndBudget: 0))
        tracer.added(Coordinator(), to: nil)
        tracer.end(onMainThread: true)
        #expect(ExitFlush.flush([tracer], budget: 10) == [true])
        #expect(sink.isClosed, "exit waited for the writer to deliver and close the sink")
    }
}
