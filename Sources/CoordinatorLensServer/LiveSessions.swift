import CoordinatorLens
import Foundation

/// Every session the inspector has heard from, each with its live tree; shared by all connections.
public final class LiveSessions: @unchecked Sendable {
    /// One session's tree and what the renderer last saw of it.
    struct Entry {
        var tree: SessionTree
        /// When the latest event arrived, on the inspector's clock, to move the evaluation time on while it is quiet.
        var lastArrival: Date
        var connections = 0
        var version = 0
    }

    private let lock = NSLock()
    private var entries: [String: Entry] = [:]
    private var order: [String] = []

    /// No sessions yet; a hook connection adds its session when it sends the session line.
    public init() {}

    /// A connection announced `header`; a run seen before continues (the hook reconnected).
    func open(_ header: SessionHeader) {
        lock.lock()
        defer { lock.unlock() }
        if entries[header.run] == nil {
            entries[header.run] = Entry(tree: SessionTree(header: header), lastArrival: Date())
            order.append(header.run)
        }
        entries[header.run]!.connections += 1
        entries[header.run]!.version += 1
    }

    func close(run: String) {
        lock.lock()
        defer { lock.unlock() }
        entries[run]?.connections -= 1
        entries[run]?.version += 1
    }

    func apply(_ record: EventRecord, run: String) {
        lock.lock()
        defer { lock.unlock() }
        guard entries[run] != nil else { return }
        entries[run]!.tree.apply(record)
        entries[run]!.lastArrival = Date()
        entries[run]!.version += 1
    }

    func report(_ diagnostic: Diagnostic, run: String) {
        lock.lock()
        defer { lock.unlock() }
        entries[run]?.tree.report(diagnostic)
        entries[run]?.version += 1
    }

    /// Each session judged now: a live session's clock runs on since its last event; an ended one stops at its end.
    public func snapshots(grace: Double, now: Date = Date()) -> [LiveSnapshot] {
        lock.lock()
        defer { lock.unlock() }
        return order.compactMap { run in
            guard let entry = entries[run] else { return nil }
            let quiet = entry.tree.ended ? 0 : max(0, now.timeIntervalSince(entry.lastArrival))
            let snapshot = entry.tree.snapshot(at: entry.tree.lastTime + quiet, grace: grace)
            return LiveSnapshot(snapshot: snapshot, version: entry.version, connected: entry.connections > 0, events: entry.tree.eventCount)
        }
    }
}

/// A live session's snapshot with what the status line and the renderer need besides the tree.
public struct LiveSnapshot: Sendable {
    /// The session judged at the `now` it was taken at: its clock runs on after its last event unless it has ended.
    public var snapshot: Snapshot
    /// Grows with every change the stream made; with the verdict counts it tells whether a re-render is due.
    public var version: Int
    /// Whether a hook connection for this run is open.
    public var connected: Bool
    /// Events applied so far, including those that only produced a warning.
    public var events: Int
}
