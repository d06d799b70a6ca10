import CoordinatorLens
@_spi(Locking) import CoordinatorWire
import Dispatch
import Foundation
import Testing

@testable import CoordinatorTrace

/// A coordinator that detaches itself from its parent as it goes, as apps whose base class calls the hook from
/// `deinit` do: its last release must never happen under the hook's lock.
private final class SelfDetaching: @unchecked Sendable {
    let tracer: Tracer
    weak var parent: SelfDetaching?

    init(tracer: Tracer, parent: SelfDetaching?) {
        self.tracer = tracer
        self.parent = parent
    }

    deinit {
        tracer.removed(self, from: parent)
    }
}

/// An app's own sink whose `deinit` reports through the hook (a sink that wraps the app's logger, which traces).
private final class HookCallingSink: TraceSink, @unchecked Sendable {
    let tracer: Tracer
    let lines = MemorySink()
    /// The run the tracer said was current while the sink was freed.
    let seenRun: LockedBox<String?>

    init(tracer: Tracer, seenRun: LockedBox<String?>) {
        self.tracer = tracer
        self.seenRun = seenRun
    }

    func deliver(_ batch: ArraySlice<[UInt8]>) -> Int { lines.deliver(batch) }
    func close() { lines.close() }

    deinit {
        seenRun.withLock { $0 = tracer.runID }
        tracer.mark("sink freed")
    }
}

@Suite struct HookReentryTests {
    /// The plan of a retainer search turns every watched coordinator's weak reference strong under the lock. Here the
    /// app's thread lets go of a batch of coordinators exactly while a search holds the lock (it waits until it sees
    /// the lock taken), so the plan's references are the last ones. Before the fix they were dropped under the lock,
    /// the `deinit`s ran there and called the hook, and the app hung (a debug build's lock now stops the process with
    /// the stack instead). The batch comes first in the registry and many living coordinators after it, so the
    /// search has taken the batch's references by the time the app lets go.
    @Test func aDeinitThatCallsTheHookNeverRunsUnderItsLock() {
        for round in 0..<20 {
            let tracer = Tracer()
            tracer.start(app: "Reentry", sink: MemorySink(), options: TraceOptions(grace: 30))
            let root = SelfDetaching(tracer: tracer, parent: nil)
            tracer.added(root, to: nil)
            var batch: [SelfDetaching] = []
            for index in 0..<64 {
                let child = SelfDetaching(tracer: tracer, parent: root)
                tracer.added(child, to: root)
                if index % 2 == round % 2 { tracer.dismissed(child) }
                batch.append(child)
            }
            let living = (0..<20_000).map { _ in SelfDetaching(tracer: tracer, parent: root) }
            for coordinator in living { tracer.added(coordinator, to: root) }
            let searched = DispatchSemaphore(value: 0)
            DispatchQueue.global().async {
                tracer.searchRetainers()
                searched.signal()
            }
            // Until the search holds the lock (or is done already: then this round proves nothing, and the next tries).
            while tracer.state.withLockIfAvailable({ _ in true }) != nil, searched.wait(timeout: .now()) == .timedOut {}
            batch.removeAll()
            #expect(searched.wait(timeout: .now() + 60) == .success, "the search stalled on the hook's lock")
            tracer.end()
            withExtendedLifetime((root, living)) {}
        }
    }

    /// `exit` waits for the hook's lock only within its budget: a lock held for ever (an app thread stuck inside a
    /// hook call) makes it give up and say so, not hang the process.
    @Test func exitFlushGivesUpOnALockHeldForEver() {
        let tracer = Tracer()
        tracer.start(app: "ExitHeld", sink: MemorySink())
        let holding = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            tracer.state.withLock { _ in
                holding.signal()
                release.wait()
            }
        }
        holding.wait()
        let started = Date()
        let flushed = ExitFlush.flush([tracer], budget: 0.2)
        let took = Date().timeIntervalSince(started)
        release.signal()
        #expect(flushed == [false], "the held tracer is reported as not flushed")
        #expect(took < 5, "exit waited \(took) s for a lock held for ever, past its 0.2 s budget")
        tracer.end()
    }

    /// The tracer keeps the last session's writer (for `counts`) until the next `start` replaces it. Once the writer's
    /// thread has let go, that slot is the writer's last reference, and with it the app's sink's: before the fix the
    /// sink's `deinit` ran inside `start`'s hold of the lock and its hook call re-entered it (a hang in a release
    /// build; the debug build's error-checking lock stops the process).
    @Test func aSinkFreedByTheNextStartIsFreedOutsideTheLock() throws {
        let tracer = Tracer()
        let seenRun = LockedBox<String?>(nil)
        tracer.start(app: "First", sink: HookCallingSink(tracer: tracer, seenRun: seenRun))
        tracer.end()
        let deadline = Date(timeIntervalSinceNow: 30)
        while !tracer.state.withLock({ isKnownUniquelyReferenced(&$0.lastWriter) }) {
            try #require(Date() < deadline, "the first writer's thread never let go of it")
            sched_yield()
        }
        let sink = MemorySink()
        tracer.start(app: "Second", sink: sink)
        let second = tracer.runID
        tracer.end()
        #expect(seenRun.withLock { $0 } == second, "the first sink was freed while the second session ran, outside the lock")
        let labels = events(try session(from: sink)).compactMap { event -> String? in
            if case .mark(let label) = event { return label }
            return nil
        }
        #expect(labels == ["sink freed"], "the first sink's deinit reported into the second session once: \(labels)")
    }
}
