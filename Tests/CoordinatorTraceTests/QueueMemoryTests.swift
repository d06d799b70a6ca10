import Foundation
import Testing

@testable import CoordinatorTrace

/// The queue's bound in memory, as the README states it: a full default queue is its capacity times an event's size.
@Suite struct QueueMemoryTests {
    @Test func aFullDefaultQueueFitsTheMemoryTheReadmeStates() throws {
        let bytes = TraceOptions().bufferCapacity * MemoryLayout<RawEvent>.stride
        let readme = try String(contentsOf: Self.readme, encoding: .utf8)
        let stated = "\(MemoryLayout<RawEvent>.stride) bytes each, \(bytes / (1 << 20)) MiB"
        #expect(readme.contains(stated), "the README should say \"\(stated)\"")
    }

    /// Chunks come back for reuse, and a drained queue keeps no more than its spares.
    @Test func chunksAreReusedAndTheSparesBounded() {
        var queue = EventQueue(capacity: 100_000)
        for round in 0..<3 {
            for index in 0..<(EventQueue.chunkSize * 10) { queue.append(RawEvent(kind: .mark, id: index, nanos: UInt64(round))) }
            var drained: [[RawEvent]] = []
            #expect(queue.drain(into: &drained) == 0)
            #expect(drained.count == 10 && drained.allSatisfy { $0.count == EventQueue.chunkSize })
            #expect(drained.joined().map(\.id) == Array(0..<(EventQueue.chunkSize * 10)), "in order")
            _ = queue.drain(into: &drained)
            #expect(drained.isEmpty)
        }
        var full = EventQueue(capacity: 10)
        for index in 0..<15 { full.append(RawEvent(kind: .mark, id: index, nanos: 0)) }
        var drained: [[RawEvent]] = []
        #expect(full.drain(into: &drained) == 5, "five refused and counted")
        #expect(drained.joined().count == 10)
    }

    private static var readme: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("README.md")
    }
}
