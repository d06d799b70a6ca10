import CoordinatorLens
import CoordinatorTrace
import Dispatch
import Testing

/// The path a call takes when no session runs (before the lock), and the gate that chooses it.
@Suite struct SessionGateTests {
    @Test func callsWithNoSessionEmitNothingAndStartNone() throws {
        let tracer = Tracer()
        let early = Coordinator()
        tracer.added(early, to: nil)
        tracer.bind(early, to: Screen())
        tracer.mark("before")
        tracer.dismissed(early)
        tracer.removed(early, from: nil)
        #expect(tracer.runID == nil)
        #expect(tracer.flush(timeout: 0.1))

        let sink = MemorySink()
        tracer.start(app: "App", sink: sink, options: TraceOptions(grace: 0))
        let root = Coordinator()
        tracer.added(root, to: nil)
        tracer.end()
        #expect(tracer.runID == nil)
        // After the end the gate is closed again: nothing reaches the old sink, and nothing starts a session.
        tracer.added(Coordinator(), to: root)
        tracer.mark("after")
        #expect(tracer.runID == nil)
        // `early` was never seen by the session: the root is id 1.
        #expect(events(try session(from: sink)) == [.add(id: 1, type: "Coordinator", parent: nil), .end])

        let second = MemorySink()
        tracer.start(app: "App", sink: second, options: TraceOptions(grace: 0))
        tracer.mark("again")
        tracer.end()
        #expect(events(try session(from: second)) == [.mark(label: "again"), .end])
    }

    @Test func callsRacingStartAndEndLoseNothingTheSessionSaw() throws {
        let tracer = Tracer()
        let parents = (0..<4).map { _ in Coordinator() }
        for round in 0..<20 {
            let sink = MemorySink()
            let callers = DispatchGroup()
            DispatchQueue.global().async(group: callers) {
                DispatchQueue.concurrentPerform(iterations: 4) { index in
                    for _ in 0..<200 { tracer.added(Coordinator(), to: parents[index]) }
                }
            }
            tracer.start(app: "Race \(round)", sink: sink, options: TraceOptions(grace: 0))
            callers.wait()
            tracer.end()
            let log = try session(from: sink)
            let all = records(log)
            #expect(all.enumerated().allSatisfy { $0.element.seq == $0.offset + 1 }, "seq grows by one per event")
            #expect(all.last?.event == .end)
        }
    }

    @Test func manyObjectsKeepTheirOwnIds() throws {
        let tracer = Tracer()
        let sink = MemorySink()
        tracer.start(app: "App", sink: sink, options: TraceOptions(bufferCapacity: 50_000, grace: 0))
        let root = Coordinator()
        let children = (0..<5_000).map { _ in Coordinator() }
        tracer.added(root, to: nil)
        for child in children { tracer.added(child, to: root) }
        for child in children.reversed() { tracer.dismissed(child) }
        tracer.end()
        let all = events(try session(from: sink))
        let added = all.compactMap { event -> Int? in if case .add(let id, _, _) = event { return id.integer } else { return nil } }
        let dismissed = all.compactMap { event -> Int? in if case .dismiss(let id, _) = event { return id.integer } else { return nil } }
        #expect(added == Array(1...5_001))
        #expect(dismissed == Array((2...5_001).reversed()))
    }
}
