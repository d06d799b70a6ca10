import Foundation
import Testing

@testable import CoordinatorTrace

/// The queue's bound, and its memory as docs/HOOK.md states it: a full default queue is its capacity times an event's size.
@Suite struct QueueMemoryTests {
    @Test func aFullDefaultQueueFitsTheMemoryTheHookDocStates() throws {
        let bytes = TraceOptions().bufferCapacity * MemoryLayout<RawEvent>.stride
        let hookDoc = try String(contentsOf: Self.hookDoc, encoding: .utf8)
        let stated = "\(MemoryLayout<RawEvent>.stride) bytes each, \(bytes / (1 << 20)) MiB"
        #expect(hookDoc.contains(stated), "docs/HOOK.md should say \"\(stated)\"")
    }

    /// A full queue refuses and counts; a drain hands over what it held in order and leaves it reserved again.
    @Test func aFullQueueCountsWhatItRefusesAndADrainLeavesItReserved() {
        var queue = EventQueue(capacity: 10)
        for index in 0..<15 { queue.append(RawEvent(kind: .mark, id: index, nanos: 0)) }
        var drained: [RawEvent] = []
        #expect(queue.drain(into: &drained) == 5, "five refused and counted")
        #expect(drained.map(\.id) == Array(0..<10), "in order")
        drained.removeAll(keepingCapacity: true)
        #expect(queue.drain(into: &drained) == 0 && drained.isEmpty)
        for index in 0..<10 { queue.append(RawEvent(kind: .mark, id: index, nanos: 0)) }
        #expect(queue.drain(into: &drained) == 0 && drained.count == 10, "room for all ten again")
    }

    private static var hookDoc: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("docs/HOOK.md")
    }
}
