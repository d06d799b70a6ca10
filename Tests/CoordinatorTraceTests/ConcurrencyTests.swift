import CoordinatorLens
import CoordinatorTrace
import Dispatch
import Testing

@Suite struct ConcurrencyTests {
    @Test func manyThreadsAtOnceKeepEveryEventAndContiguousSeq() throws {
        let tracer = Tracer()
        let sink = MemorySink()
        tracer.start(app: "Hammer", sink: sink, options: TraceOptions(bufferCapacity: 1_000_000))
        let root = Coordinator()
        tracer.added(root, to: nil)
        let threads = 8
        let perThread = 1_000
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            var kept: [Coordinator] = []
            for index in 0..<perThread {
                let child = Coordinator()
                tracer.added(child, to: root)
                if index % 2 == 0 {
                    tracer.removed(child, from: root)
                } else {
                    kept.append(child)
                }
                if index % 500 == 0 { tracer.mark("thread \(thread) at \(index)") }
            }
            withExtendedLifetime(kept) {}
        }
        tracer.end()
        let log = try session(from: sink)
        let all = records(log)
        #expect(all.enumerated().allSatisfy { $0.element.seq == $0.offset + 1 }, "seq grows by one per event")
        let adds = all.filter { if case .add = $0.event { true } else { false } }
        #expect(adds.count == threads * perThread + 1)
        #expect(Set(adds.map { if case .add(let id, _, _) = $0.event { id } else { CoordinatorID(0) } }).count == adds.count)
        var tree = SessionTree(header: log.header)
        all.forEach { tree.apply($0) }
        #expect(tree.diagnostics.isEmpty, "\(tree.diagnostics.prefix(3))")
        #expect(tree.all.count == threads * perThread + 1)
        withExtendedLifetime(root) {}
    }

    @Test func aFullBufferDropsAndSaysHowMany() throws {
        let tracer = Tracer()
        let sink = MemorySink()
        tracer.start(app: "Tiny", sink: sink, options: TraceOptions(bufferCapacity: 8, tickInterval: 0.5))
        let root = Coordinator()
        for index in 0..<100 { tracer.mark("m\(index)") }
        tracer.end()
        withExtendedLifetime(root) {}
        let kinds = events(try session(from: sink))
        let marks = kinds.filter { if case .mark = $0 { true } else { false } }.count
        let dropped = kinds.compactMap { if case .dropped(let count) = $0 { count } else { nil } }.reduce(0, +)
        #expect(marks + dropped == 100)
        #expect(dropped > 0)
        #expect(kinds.last == .end, "the end of the session is never dropped")
    }
}
