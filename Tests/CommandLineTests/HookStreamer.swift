import CoordinatorLens
@_spi(Testing) import CoordinatorTrace
import Foundation
import Testing

/// Streams from `threads` threads, `rounds` rounds of `perRound` events each (adds, removes and deinits of
/// children under one root, a mark each round), pausing `pause` seconds between rounds.
final class HookStreamer: @unchecked Sendable {
    final class Node: Sendable {}
    let tracer: Tracer
    let root = Node()
    private let done = DispatchSemaphore(value: 0)
    private let threads: Int

    init(_ tracer: Tracer, threads: Int = 1, rounds: Int, perRound: Int, pause: Double) {
        self.tracer = tracer
        self.threads = threads
        tracer.added(root, to: nil)
        for thread in 0..<threads {
            Thread { [self] in
                var kept: [Node] = []
                for round in 0..<rounds {
                    for index in 0..<perRound {
                        let child = Node()
                        tracer.added(child, to: root)
                        if index % 3 == 0 { tracer.removed(child, from: root) } else { kept.append(child) }
                    }
                    if kept.count > 200 { kept.removeFirst(100) }
                    tracer.mark("t\(thread) r\(round)")
                    // clock: a pause between rounds paces the stream as an app's work would, so faults land mid-stream.
                    if pause > 0 { Thread.sleep(forTimeInterval: pause) }
                }
                done.signal()
            }.start()
        }
    }

    func wait() {
        for _ in 0..<threads { done.wait() }
    }
}

/// The equation the fault tests hold a hook to: its own count of events equals what the recording holds plus what
/// `dropped` lines report, plus what of the lines the inspector never confirmed the recording lacks.
enum HookAccounting {
    /// The equation over the recording at `path` for the tracer's run; returns the dropped total it found.
    @discardableResult
    /// `cutLines`: a `listen` killed with SIGKILL may leave its last line cut; the next one ends it there, as a line
    /// that reads as malformed, and the hook, never told it was kept, sends it again whole.
    static func expectEverythingAccounted(_ tracer: Tracer, run: String, path: String, cutLines: Int = 0) throws -> Int {
        let counts = try #require(tracer.finalCounts(timeout: 30))
        let recording = Recording(bytes: Array(try #require(FileManager.default.contents(atPath: path))))
        let log = try #require(recording.session(run: run))
        let records = log.entries.compactMap { entry -> EventRecord? in
            if case .record(let record) = entry { return record }
            return nil
        }
        let dropped = records.reduce(0) { total, record in
            if case .dropped(let count) = record.event { return total + count }
            return total
        }
        let events = records.filter { if case .dropped = $0.event { false } else { true } }
        #expect(Set(records.map(\.seq)).count == records.count, "no line recorded twice")
        // Lines the inspector never confirmed are each recorded or missing; a `dropped` line that never arrived still
        // counts in the hook's `dropped`, so the recording's own dropped total may only fall short of it.
        let seqs = counts.unconfirmedSeqs
        let arrivedUnconfirmed = seqs.map { range in events.filter { range.contains($0.seq) }.count } ?? 0
        let missing = counts.unconfirmed - arrivedUnconfirmed
        #expect(missing >= 0, "no more of the unconfirmed lines arrived than were sent")
        #expect(
            events.count + counts.dropped + missing == counts.events,
            "recorded \(events.count) + dropped \(counts.dropped) + unconfirmed and missing \(missing) = hook's \(counts.events) events")
        #expect(dropped <= counts.dropped, "the recording reports no drop the hook did not count")
        if counts.unconfirmed == 0 {
            #expect(dropped == counts.dropped, "every dropped count the hook reported is in the recording")
            #expect(records.last?.event == .end, "the session's end is recorded")
        }
        let malformed = log.entries.filter { if case .malformed = $0 { true } else { false } }
        #expect(malformed.count <= cutLines, "whole lines only: \(malformed.prefix(3))")
        return dropped
    }
}
