import CoordinatorLens
import Foundation
import NIOConcurrencyHelpers

/// Every session the inspector holds in memory, each with its live tree; shared by all connections.
///
/// Ingestion holds the lock only to apply a line. Snapshots copy a tree under the lock (copy-on-write makes that
/// cheap) and judge it outside, so a big tree never stalls the connections. One judgement per session version and
/// grace is kept and shared by the refresher, the feed and the page's requests: a change is judged once, not four
/// times, and the copy a judgement holds costs the next line that changes the tree one copy, not four.
package final class LiveSessions: Sendable {
    struct Entry {
        var tree: SessionTree
        /// When the latest event arrived, on the inspector's clock, to move the evaluation time on while it is quiet.
        var lastArrival: Date
        /// When anything last happened to it: an event, a connection opening or closing; eviction counts from here.
        var lastActivity: Date
        var connections = 0
        var version = 0
        /// When it last changed, counted across all runs: changed runs are judged, and their status lines printed, in
        /// the order of their latest change.
        var changedAt = 0
        /// Malformed and over-long lines seen; only the first `maxKeptMalformed` are kept as warnings.
        var unreadable = 0
        /// The version the refresher last judged, and when a pending coordinator may turn retained.
        var judgedVersion = -1
        var recheckAt: Date?
        var finishCounted = false
        /// Every line applied so far, in order, for snapshots at an earlier point (the page's time travel); only the
        /// first `maxHistoryEvents` events are kept, so a session past it travels over that prefix alone.
        var history: HistoryChunks
        var notes: [Diagnostic] = []
        var historyFull = false
        /// New coordinators past `maxCoordinators` that were counted, not added.
        var refusedCoordinators = 0
        /// The latest judgement, its version and grace, and when it was made.
        var judged: Judgement?
        /// When the latest judgement was made and what it took, whether or not the tree changed meanwhile.
        var lastJudgement: (at: Date, cost: Double)?
        /// Loaded from a recording rather than fed by a connection: judged at its last event, as `check` judges it.
        var frozen = false

        /// Something changed: a new version, numbered `change` among all runs' changes.
        mutating func changed(_ change: Int) {
            version += 1
            changedAt = change
        }
    }

    struct Judgement {
        var version: Int
        var grace: Double
        var at: Date
        var live: LiveSnapshot
        /// Seconds the judgement took.
        var cost: Double
    }

    /// A live session whose judgement took longer than this is judged again only after `restFactor` times as long:
    /// each judgement of a tree that keeps growing costs a copy of it on the next line and a walk of it, and judged at
    /// every refresh, a million-coordinator tree would keep a core busy and slow the very lines that grow it.
    static let restingJudgement = 0.02
    static let restFactor = 4.0

    /// How long a judgement of a live, quiet session stands: its clock runs on, so verdicts may turn, but not faster
    /// than a person or the status line can tell.
    static let judgementLifetime = 0.25

    /// What opening a run did.
    enum Opening: Equatable {
        case opened
        /// Another connection holds the run: both feed one tree, with a warning in it.
        case shared
        /// The session table is full of connected sessions: the run was not opened.
        case full
    }

    /// What lines are applied under.
    private struct Intake {
        var entries: [String: Entry] = [:]
        var order: [String] = []
        var finished = 0
        var evictedForRoom: [SessionHeader] = []
        /// Runs changed since the page feed last asked, so it pushes what changed and nothing else.
        var changedRuns = Set<String>()
        /// Changes so far, over all runs.
        var changes = 0

        /// A run's tree or connections changed.
        mutating func touch(_ run: String) {
            guard entries[run] != nil else { return }
            changes += 1
            entries[run]!.changed(changes)
        }
    }

    /// The runs held and their latest judgements.
    private struct Shown {
        var order: [String] = []
        var judgements: [String: Judgement] = [:]
    }

    private let intake = NIOLockedValueBox(Intake())
    /// Behind a lock of its own: a page that connects reads it without waiting for the intake's, which a line that
    /// copies a huge tree holds for a while. Taken inside `intake`'s when both are, never the other way round.
    private let shown = NIOLockedValueBox(Shown())
    let maxKeptMalformed: Int
    let maxSessions: Int
    let maxHistoryEvents: Int
    let maxCoordinators: Int
    /// Counts every judgement adds to the app's own (`--max-alive`, `--reusable`, …).
    package let aliveLimits: [AliveLimit]

    /// No sessions yet; a hook connection adds its session when it sends the session line.
    package init(
        maxKeptMalformed: Int = 100, maxSessions: Int = 1_000, maxHistoryEvents: Int = 1_000_000, maxCoordinators: Int = 1_000_000,
        aliveLimits: [AliveLimit] = []
    ) {
        self.aliveLimits = aliveLimits
        self.maxKeptMalformed = maxKeptMalformed
        self.maxSessions = maxSessions
        self.maxHistoryEvents = maxHistoryEvents
        self.maxCoordinators = maxCoordinators
    }

    /// Sessions that have ended and lost their connection so far, evicted ones included.
    package var finishedCount: Int {
        intake.withLockedValue { $0.finished }
    }

    /// Runs held in memory, in the order they were first heard from.
    package var runs: [String] {
        intake.withLockedValue { $0.order }
    }

    /// A connection announced `header`; a run seen before continues (the hook reconnected).
    func open(_ header: SessionHeader, now: Date = Date()) -> Opening {
        intake.withLockedValue { intake in
            if intake.entries[header.run] == nil {
                if intake.entries.count >= maxSessions, !evictOldestDisconnected(&intake) { return .full }
                intake.entries[header.run] = Entry(
                    tree: SessionTree(header: header), lastArrival: now, lastActivity: now, history: HistoryChunks()
                )
                intake.order.append(header.run)
                shown.withLockedValue { $0.order.append(header.run) }
            }
            let shared = intake.entries[header.run]!.connections > 0
            if shared {
                let diagnostic = Diagnostic(
                    line: 0, message: "a second connection sent this run id while another still held it: their events share this tree"
                )
                intake.entries[header.run]!.tree.report(diagnostic)
                intake.entries[header.run]!.notes.append(diagnostic)
            }
            intake.changedRuns.insert(header.run)
            intake.entries[header.run]!.connections += 1
            intake.entries[header.run]!.lastActivity = now
            intake.touch(header.run)
            return shared ? .shared : .opened
        }
    }

    func close(run: String, now: Date = Date()) {
        intake.withLockedValue { intake in
            guard intake.entries[run] != nil else { return }
            intake.entries[run]!.connections -= 1
            intake.entries[run]!.lastActivity = now
            intake.touch(run)
            let entry = intake.entries[run]!
            if entry.connections == 0, entry.tree.ended, !entry.finishCounted {
                intake.entries[run]!.finishCounted = true
                intake.finished += 1
            }
            intake.changedRuns.insert(run)
        }
    }

    func apply(_ record: EventRecord, run: String, now: Date = Date()) {
        let maxCoordinators = maxCoordinators
        let maxHistoryEvents = maxHistoryEvents
        intake.withLockedValue { intake in
            // One look-up of the run per line, then the entry changed in place: a line is applied hundreds of
            // thousands of times a second, and each look-up hashes the run id.
            guard let index = intake.entries.index(forKey: run) else { return }
            intake.changes += 1
            let change = intake.changes
            intake.changedRuns.insert(run)
            Self.apply(
                record, to: &intake.entries.values[index], change: change, now: now, maxCoordinators: maxCoordinators, maxHistoryEvents: maxHistoryEvents)
        }
    }

    private static func apply(
        _ record: EventRecord, to entry: inout Entry, change: Int, now: Date, maxCoordinators: Int, maxHistoryEvents: Int
    ) {
        entry.lastArrival = now
        entry.lastActivity = now
        entry.changed(change)
        if case .add(let id, _, _) = record.event, entry.tree.coordinatorCount >= maxCoordinators, !entry.tree.knows(id) {
            // Memory is bounded per session: past the limit new coordinators are counted, said once, and not kept.
            // The recording still has them.
            entry.refusedCoordinators += 1
            if entry.refusedCoordinators == 1 {
                entry.tree.report(
                    Diagnostic(
                        line: record.line,
                        message:
                            "this session reached the limit of \(maxCoordinators) coordinators (--max-coordinators): further new ones are counted, not drawn or judged"
                    ))
            }
            return
        }
        entry.tree.apply(record)
        if entry.history.count < maxHistoryEvents {
            entry.history.append(.record(record))
        } else {
            entry.historyFull = true
        }
    }

    /// A problem that belongs to the session rather than to a line: always kept.
    func report(_ diagnostic: Diagnostic, run: String) {
        intake.withLockedValue { intake in
            intake.entries[run]?.tree.report(diagnostic)
            intake.entries[run]?.notes.append(diagnostic)
            intake.touch(run)
            intake.changedRuns.insert(run)
        }
    }

    /// A malformed or over-long line: counted, and kept as a warning while fewer than `maxKeptMalformed` are.
    func reportUnreadable(_ diagnostic: Diagnostic, run: String) {
        intake.withLockedValue { intake in
            guard intake.entries[run] != nil else { return }
            intake.entries[run]!.unreadable += 1
            intake.touch(run)
            intake.changedRuns.insert(run)
            let count = intake.entries[run]!.unreadable
            var kept: Diagnostic?
            if count <= maxKeptMalformed {
                kept = diagnostic
            } else if count == maxKeptMalformed + 1 {
                kept = Diagnostic(
                    line: diagnostic.line,
                    message: "more than \(maxKeptMalformed) unreadable lines: from here on they are only counted (see listen's status line)"
                )
            }
            guard let kept else { return }
            intake.entries[run]!.tree.report(kept)
            if !intake.entries[run]!.historyFull { intake.entries[run]!.history.append(.malformed(kept)) }
        }
    }

    /// Adds a whole session read from a recording, judged from then on at its last event, as `check` judges it;
    /// false when the run is already held or the table is full.
    package func load(_ log: SessionLog, now: Date = Date()) -> Bool {
        let replayed = (try? log.replay(until: .end))?.tree ?? SessionTree(header: log.header)
        var entry = Entry(tree: replayed, lastArrival: now, lastActivity: now, history: HistoryChunks(log.entries))
        entry.notes = log.notes
        entry.frozen = true
        entry.finishCounted = true
        return intake.withLockedValue { intake in
            guard intake.entries[log.header.run] == nil, intake.entries.count < maxSessions else { return false }
            intake.entries[log.header.run] = entry
            intake.order.append(log.header.run)
            shown.withLockedValue { $0.order.append(log.header.run) }
            intake.changedRuns.insert(log.header.run)
            return true
        }
    }

    /// One run judged now (nil when it is not held): the page's view of the present.
    package func live(run: String, grace: Double, now: Date = Date()) -> LiveSnapshot? {
        let entry = intake.withLockedValue { $0.entries[run] }
        return entry.map { judged(run: run, $0, grace: grace, now: now) }
    }

    /// A run's lines so far, to replay up to an earlier point, and whether events past `maxHistoryEvents` were left
    /// out of it.
    package func history(run: String) -> (log: SessionLog, complete: Bool)? {
        let kept = intake.withLockedValue { $0.entries[run].map { ($0.history, $0.notes, $0.tree.header, !$0.historyFull) } }
        return kept.map { history, notes, header, complete in (history.log(header: header, notes: notes), complete) }
    }

    /// The runs changed since the last call (opened, fed, closed, warned) and the runs no longer held.
    func takeChangedRuns() -> (changed: Set<String>, gone: Set<String>) {
        intake.withLockedValue { intake in
            let taken = intake.changedRuns
            intake.changedRuns = []
            return (taken.filter { intake.entries[$0] != nil }, taken.filter { intake.entries[$0] == nil })
        }
    }

    /// Each session judged now: a live session's clock runs on since its last event; an ended one stops at its end.
    package func snapshots(grace: Double, now: Date = Date()) -> [LiveSnapshot] {
        let copies = intake.withLockedValue { intake in intake.order.compactMap { run in intake.entries[run].map { (run, $0) } } }
        return copies.map { judged(run: $0.0, $0.1, grace: grace, now: now) }
    }

    /// Each session's latest judgement with `grace`, however many lines arrived since, and a new one only for a session
    /// never judged with it: what a page that connects gets at once, so a session that grows by the second never
    /// keeps it waiting for a judgement of its whole tree. The feed's next round brings each one up to date.
    func latestSnapshots(grace: Double, now: Date = Date()) -> [LiveSnapshot] {
        let (runs, kept) = shown.withLockedValue { ($0.order, $0.judgements) }
        return runs.compactMap { run in
            if let judgement = kept[run], judgement.grace == grace { return judgement.live }
            return live(run: run, grace: grace, now: now)
        }
    }

    /// The sessions that changed since the last call, and those whose pending coordinators may have turned retained
    /// since; every other session is left alone.
    func changes(grace: Double, now: Date = Date(), resting: Bool = true) -> [LiveSnapshot] {
        let copies = intake.withLockedValue { intake in
            var copies: [(String, Entry)] = []
            for run in intake.order {
                guard var entry = intake.entries[run] else { continue }
                let due = entry.recheckAt.map { $0 <= now } ?? false
                guard entry.version != entry.judgedVersion || due else { continue }
                if resting, !entry.tree.ended, let last = entry.lastJudgement, last.cost > Self.restingJudgement,
                    now.timeIntervalSince(last.at) < last.cost * Self.restFactor
                {
                    continue
                }
                entry.judgedVersion = entry.version
                entry.recheckAt = nil
                intake.entries[run] = entry
                copies.append((run, entry))
            }
            return copies.sorted { $0.1.changedAt < $1.1.changedAt }
        }

        let judged = copies.map { self.judged(run: $0.0, $0.1, grace: grace, now: now) }
        // Worked out outside the lock; only the results are stored under it.
        let rechecks = zip(judged, copies).compactMap { live, copy -> (String, Date)? in
            guard !live.snapshot.ended else { return nil }
            let pendingSince = live.snapshot.nodes.lazy.filter { $0.verdict == .pending }.compactMap(\.doneAt).min()
            guard let pendingSince else { return nil }
            // Session time runs on with the wall clock while the session is quiet, so this maps one to the other.
            let turnsIn = pendingSince + grace - live.snapshot.evaluatedAt
            return (copy.0, now.addingTimeInterval(max(0, turnsIn) + 0.01))
        }
        if !rechecks.isEmpty {
            intake.withLockedValue { intake in
                for (run, at) in rechecks { intake.entries[run]?.recheckAt = at }
            }
        }
        return judged
    }

    /// Sessions dropped since the last call to make room for a new run under `maxSessions`.
    func takeEvictedForRoom() -> [SessionHeader] {
        intake.withLockedValue { intake in
            defer { intake.evictedForRoom = [] }
            return intake.evictedForRoom
        }
    }

    /// Drops sessions with no connection and no activity for `seconds`; returns their session lines.
    func evict(idleFor seconds: Double, now: Date = Date()) -> [SessionHeader] {
        intake.withLockedValue { intake in
            let gone = intake.order.compactMap { run -> SessionHeader? in
                guard let entry = intake.entries[run], entry.connections == 0, now.timeIntervalSince(entry.lastActivity) >= seconds
                else { return nil }
                return entry.tree.header
            }
            remove(Set(gone.map(\.run)), from: &intake)
            return gone
        }
    }

    /// Frees a slot for a new run, inside `intake`'s lock.
    private func evictOldestDisconnected(_ intake: inout Intake) -> Bool {
        let oldest = intake.order.filter { intake.entries[$0]?.connections == 0 }
            .min { intake.entries[$0]!.lastActivity < intake.entries[$1]!.lastActivity }
        guard let oldest, let header = intake.entries[oldest]?.tree.header else { return false }
        intake.evictedForRoom.append(header)
        remove([oldest], from: &intake)
        return true
    }

    /// Forgets `runs`, inside `intake`'s lock.
    private func remove(_ runs: Set<String>, from intake: inout Intake) {
        guard !runs.isEmpty else { return }
        for run in runs { intake.entries.removeValue(forKey: run) }
        intake.order.removeAll { runs.contains($0) }
        shown.withLockedValue { shown in
            for run in runs { shown.judgements.removeValue(forKey: run) }
            shown.order.removeAll { runs.contains($0) }
        }
        intake.changedRuns.formUnion(runs)
    }

    /// The entry's judgement: the kept one when it is of the same version and grace and still fresh, else a new one,
    /// kept for the next reader.
    private func judged(run: String, _ entry: Entry, grace: Double, now: Date) -> LiveSnapshot {
        if let kept = entry.judged, kept.version == entry.version, kept.grace == grace,
            entry.frozen || entry.tree.ended || abs(now.timeIntervalSince(kept.at)) < Self.judgementLifetime
        {
            return kept.live
        }
        let started = Date()
        let live = Self.judge(entry, grace: grace, limits: aliveLimits, now: now)
        let judgement = Judgement(version: entry.version, grace: grace, at: now, live: live, cost: Date().timeIntervalSince(started))
        intake.withLockedValue { intake in
            guard intake.entries[run] != nil else { return }
            intake.entries[run]!.lastJudgement = (now, judgement.cost)
            guard intake.entries[run]!.version == entry.version else { return }
            intake.entries[run]!.judged = judgement
            shown.withLockedValue { $0.judgements[run] = judgement }
        }
        return live
    }

    private static func judge(_ entry: Entry, grace: Double, limits: [AliveLimit], now: Date) -> LiveSnapshot {
        let quiet = entry.tree.ended || entry.frozen ? 0 : max(0, now.timeIntervalSince(entry.lastArrival))
        let snapshot = entry.tree.snapshot(at: entry.tree.lastTime + quiet, grace: grace, limits: limits)
        return LiveSnapshot(
            snapshot: snapshot, version: entry.version, connected: entry.connections > 0, events: entry.tree.eventCount,
            unreadableLines: entry.unreadable, recorded: entry.frozen
        )
    }
}

/// A live session's snapshot with what the status line and the renderer need besides the tree.
package struct LiveSnapshot: Sendable {
    /// The session judged at the `now` it was taken at: its clock runs on after its last event unless it has ended.
    package var snapshot: Snapshot
    /// Grows with every change the stream made; with the verdict counts it tells whether a re-render is due.
    package var version: Int
    /// Whether a hook connection for this run is open.
    package var connected: Bool
    /// Events applied so far, including those that only produced a warning.
    package var events: Int
    /// Malformed and over-long lines received, kept as warnings or not.
    package var unreadableLines: Int
    /// Read from a recording (`coordlens view`) rather than fed by a hook connection.
    package var recorded = false
}
