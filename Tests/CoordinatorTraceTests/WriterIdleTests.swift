import CoordinatorLens
@_spi(Locking) import CoordinatorWire
import Foundation
import TestSupport
import Testing

@testable import CoordinatorTrace

/// An idle hook costs the app nothing: its writer sleeps until a caller queues an event, a heartbeat is due or the
/// sink may retry, instead of waking every tick.
@Suite struct WriterIdleTests {
    @Test func anIdleWriterWakesAtMostTwiceASecond() throws {
        let tracer = Tracer()
        let sink = MemorySink()
        tracer.start(app: "Idle", sink: sink)
        let root = Coordinator()
        tracer.added(root, to: nil)
        #expect(tracer.flush())
        let writer = tracer.state.withLock { $0.session?.writer }!
        let before = writer.wakeUps
        // clock: the writer's wake-ups over two idle seconds are what is measured.
        Thread.sleep(forTimeInterval: 2)
        let wakeUps = writer.wakeUps - before
        #expect(wakeUps <= 4, "\(wakeUps) wake-ups in 2 idle seconds (a 10 ms tick would be about 200)")
        tracer.end()
        #expect(events(try session(from: sink)).contains(.heartbeat), "heartbeats still go out while idle")
        withExtendedLifetime(root) {}
    }

    @Test func theFirstEventAfterQuietWakesTheWriter() throws {
        let tracer = Tracer()
        let sink = MemorySink()
        // A heartbeat a minute: only the event's own wake-up can get its line out within the wait below.
        tracer.start(app: "Woken", sink: sink, options: TraceOptions(heartbeatInterval: 60))
        let root = Coordinator()
        tracer.added(root, to: nil)
        #expect(tracer.flush())
        let writer = tracer.state.withLock { $0.session?.writer }!
        #expect(waitUntil(seconds: 10) { tracer.state.withLock { $0.session?.writerAsleep == true } }, "the writer fell asleep")
        let child = Coordinator()
        tracer.added(child, to: root)
        #expect(waitUntil(seconds: 10) { sink.lines.count >= 3 }, "the add after the quiet reached the sink: \(sink.lines)")
        #expect(writer.wakeUps >= 1)
        tracer.end()
        withExtendedLifetime((root, child)) {}
    }

    /// Where sweeps find deaths, a finished coordinator in its grace period keeps the writer ticking: its release is
    /// stamped when it happens, not at the next heartbeat, so a release in time is judged released, not late.
    @Test func aReleaseWithinTheGraceIsStampedInTime() throws {
        let tracer = Tracer()
        let sink = MemorySink()
        tracer.start(app: "Grace", sink: sink, options: TraceOptions(grace: 30, heartbeatInterval: 60))
        let root = Coordinator()
        var child: Coordinator? = Coordinator()
        tracer.added(root, to: nil)
        tracer.added(child!, to: root)
        tracer.dismissed(child!)
        #expect(tracer.flush())
        // clock: the app stays quiet long enough for an idle writer to have fallen asleep.
        Thread.sleep(forTimeInterval: 0.3)
        let released = Date()
        child = nil
        #expect(waitUntil(seconds: 10) { sink.lines.contains { $0.contains(#""event":"deinit""#) } }, "\(sink.lines)")
        let found = Date().timeIntervalSince(released)
        #expect(found < 5, "the release was found \(found) s after it happened")
        tracer.end()
        withExtendedLifetime(root) {}
    }
}
