@_spi(Testing) import CoordinatorTrace
import Foundation
import Testing

/// With no inspector at all, every event is dropped and counted once: the hook's dropped total equals its events,
/// the session line and the `dropped` lines themselves (lost too) counted as no event, and what those lines reported
/// not counted twice.
@Suite struct NoInspectorAccountingTests {
    final class Node {}

    @Test(arguments: [100, 10_000])
    func droppedEqualsSentWhenNobodyListens(backlog: Int) {
        let tracer = Tracer()
        // Port 1 on loopback: nothing listens there, so every connection is refused. A refused sink is given up at
        // once, so the long end timeout only gives a slow writer (under Thread Sanitizer) time to finish its count.
        tracer.start(app: "Alone", sink: .tcp(port: 1), options: TraceOptions(backlogCapacity: backlog, endTimeout: 5, heartbeatInterval: 0.05))
        let root = Node()
        tracer.added(root, to: nil)
        var kept: [Node] = []
        for round in 0..<20 {
            for _ in 0..<250 {
                let child = Node()
                tracer.added(child, to: root)
                kept.append(child)
            }
            tracer.mark("round \(round)")
            // clock: rounds spread over a fifth of a second, so heartbeats and tries to connect come between them.
            Thread.sleep(forTimeInterval: 0.01)
        }
        tracer.end()
        let counts = tracer.finalCounts(timeout: 30)
        #expect(counts != nil)
        #expect(counts?.events ?? 0 > 5_000)
        #expect(counts?.dropped == counts?.events, "sent = recorded (none) + dropped, exactly: \(String(describing: counts))")
        withExtendedLifetime((root, kept)) {}
    }
}
