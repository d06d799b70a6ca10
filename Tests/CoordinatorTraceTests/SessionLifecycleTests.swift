import CoordinatorLens
import CoordinatorTrace
import Dispatch
import Foundation
import TestSupport
import Testing

/// The hook's guarantees that make verdicts trustworthy in real runs: order, time, a decisive end, heartbeats.
@Suite struct SessionLifecycleTests {
    /// A fixed flow repeated in a tight loop, no sleeps: every deallocation before a mark is in the stream before it,
    /// so the growth report sees no pile-up, and the marks carry their real times, which never decrease (on Linux the
    /// hook's clock has the kernel tick's resolution, so marks within one tick share a time).
    @Test func tightLoopOfAFixedFlowShowsNoGrowth() throws {
        let tracer = Tracer()
        let sink = MemorySink()
        tracer.start(app: "Loop", sink: sink, options: TraceOptions(grace: 0))
        let root = Coordinator()
        tracer.added(root, to: nil)
        for _ in 0..<6 {
            var detail: Coordinator? = Coordinator()
            var screen: Screen? = Screen()
            tracer.added(detail!, to: root)
            tracer.bind(detail!, to: screen!)
            screen = nil
            tracer.removed(detail!, from: root)
            detail = nil
            tracer.mark("iteration")
        }
        tracer.end()
        let log = try session(from: sink)
        let report = try GrowthReport(log, label: "iteration")
        #expect(report.growing.isEmpty, "\(report.types)")
        #expect(report.types.first { $0.type == "Coordinator" }?.counts == [1, 1, 1, 1, 1, 1])
        let times = report.marks.map(\.time)
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 <= $1 }, "marks stamped with their real times: \(times)")
        #expect(times.allSatisfy { $0 >= 0 && $0 < 60 }, "times since the session's start, not a wrapped clock: \(times)")
        withExtendedLifetime(root) {}
    }

    /// A run that is killed (no `end`) is judged at its last heartbeat, so a leak it had long enough is retained.
    @Test func killedRunIsJudgedAtItsLastHeartbeat() throws {
        let tracer = Tracer()
        let sink = MemorySink()
        tracer.start(app: "Killed", sink: sink, options: TraceOptions(heartbeatInterval: 0.05))
        let root = Coordinator()
        let leaked = Coordinator()
        tracer.added(root, to: nil)
        tracer.added(leaked, to: root)
        tracer.dismissed(leaked)
        // No end(): the recording stops once heartbeats have gone on past 0.5 s, as when the app is killed then. Waiting
        // for that heartbeat, not for a fixed time, keeps a starved writer thread (Thread Sanitizer, a busy machine)
        // from making this fail.
        tracer.flush()
        var log = try session(from: sink)
        try waitUntil(seconds: 20, every: 0.05) {
            tracer.flush()
            log = try session(from: sink)
            return records(log).contains { $0.event == .heartbeat && $0.time >= 0.55 }
        }
        let heartbeats = records(log).filter { $0.event == .heartbeat }
        #expect(heartbeats.count >= 3)
        let snapshot = try log.snapshot(grace: 0.3)
        #expect(snapshot.evaluatedAt >= 0.5, "judged at the last heartbeat, not at the dismiss")
        #expect(snapshot.node(2)?.verdict == .retained)
        #expect(SessionCheck(source: "", snapshot: snapshot, atEnd: true).undecided.isEmpty)
        var tree = SessionTree(header: log.header)
        records(log).forEach { tree.apply($0) }
        #expect(tree.diagnostics.isEmpty, "a heartbeat is no warning: \(tree.diagnostics)")
        tracer.end()
        withExtendedLifetime((root, leaked)) {}
    }

    /// `end()` waits, within the grace period, for a finished coordinator still alive: the stream that ends carries its
    /// final verdict, retained, where an end stamped at once would leave it pending.
    @Test func endWaitsOutTheGraceOfAFinishedCoordinator() throws {
        let tracer = Tracer()
        let sink = MemorySink()
        tracer.start(app: "Decisive", sink: sink, options: TraceOptions(grace: 0.3))
        let root = Coordinator()
        let leaked = Coordinator()
        tracer.added(root, to: nil)
        tracer.added(leaked, to: root)
        tracer.dismissed(leaked)
        let started = Date()
        tracer.end()
        let waited = Date().timeIntervalSince(started)
        #expect(waited >= 0.29 && waited < 2, "waited \(waited) s")
        let snapshot = try session(from: sink).snapshot(grace: 0.3)
        #expect(snapshot.ended)
        #expect(snapshot.node(2)?.verdict == .retained)
        withExtendedLifetime((root, leaked)) {}
    }

    /// With nothing waiting to be freed, `end()` does not wait at all.
    @Test func endDoesNotWaitWhenNothingIsPending() throws {
        let tracer = Tracer()
        tracer.start(app: "Clean", sink: MemorySink(), options: TraceOptions(grace: 30))
        let root = Coordinator()
        do {
            let child = Coordinator()
            tracer.added(root, to: nil)
            tracer.added(child, to: root)
            tracer.removed(child, from: root)
        }
        let started = Date()
        tracer.end()
        #expect(Date().timeIntervalSince(started) < 5)
        withExtendedLifetime(root) {}
    }

    /// Racing `start`s leave one session; every session they replaced is ended and its sink closed, so no writer
    /// thread is left running.
    @Test func racingStartsLeaveOneSessionAndCloseEveryOther() throws {
        for _ in 0..<20 {
            let tracer = Tracer()
            let sinks = (0..<8).map { _ in MemorySink() }
            DispatchQueue.concurrentPerform(iterations: sinks.count) { index in
                tracer.start(app: "Race", sink: sinks[index])
            }
            let survivors = sinks.filter { !$0.isClosed }
            #expect(survivors.count == 1, "\(survivors.count) sessions still open")
            tracer.end()
            #expect(sinks.allSatisfy { $0.isClosed })
        }
    }

    /// Events racing a new session's start are stamped under the lock that orders them, so no time precedes the
    /// session's start and wraps around to billions of seconds.
    @Test func timesNeverPrecedeTheSessionStart() throws {
        let tracer = Tracer()
        let sinks = LockedSinks()
        tracer.start(app: "Clock", sink: sinks.next())
        let root = Coordinator()
        let stop = DispatchSemaphore(value: 0)
        let reporter = Thread {
            var round = 0
            while stop.wait(timeout: .now()) == .timedOut {
                tracer.mark("round \(round)")
                tracer.added(root, to: nil)
                round += 1
            }
        }
        reporter.start()
        for _ in 0..<50 {
            tracer.start(app: "Clock", sink: sinks.next())
        }
        stop.signal()
        tracer.end()
        let times = sinks.all.flatMap { Recording(bytes: $0.bytes).sessions.flatMap(records) }.map(\.time)
        #expect(!times.isEmpty)
        #expect(times.allSatisfy { $0 < 60 }, "a time wrapped: \(times.max() ?? 0)")
        withExtendedLifetime(root) {}
    }
}

/// Hands out a new memory sink per session and keeps them all, from any thread.
final class LockedSinks: @unchecked Sendable {
    private let lock = NSLock()
    private var sinks: [MemorySink] = []

    func next() -> MemorySink {
        lock.lock()
        defer { lock.unlock() }
        sinks.append(MemorySink())
        return sinks.last!
    }

    var all: [MemorySink] {
        lock.lock()
        defer { lock.unlock() }
        return sinks
    }
}
