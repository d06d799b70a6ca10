import CoordinatorLens
import Foundation

/// The runs the inspector holds and what lines, connections and time did to them: the live server's rules as a plain
/// value, with no lock and no clock of its own, so each rule is tested by calling it.
///
/// `LiveSessions` keeps one behind its lock and judges the trees it hands out outside that lock.
package struct SessionTable: Sendable {
    /// One run: its live tree and what the server knows about its stream.
    package struct Entry: Sendable {
        package var tree: SessionTree
        /// When the latest event arrived, on the inspector's clock, to move the evaluation time on while it is quiet.
        package var lastArrival: Date
        /// When anything last happened to it: an event, a connection opening or closing; eviction counts from here.
        package var lastActivity: Date
        package var connections = 0
        package var version = 0
        /// When it last changed, counted across all runs: changed runs are judged, and their status lines printed, in
        /// the order of their latest change.
        package var changedAt = 0
        /// Malformed and over-long lines seen; only the first `maxKeptMalformed` are kept as warnings.
        package var unreadable = 0
        /// The version last handed out for judgement, and when a pending coordinator may turn retained.
        var judgedVersion = -1
        var recheckAt: Date?
        var finishCounted = false
        /// Every line applied so far, in order, for snapshots at an earlier point (the page's time travel); only the
        /// first `maxHistoryEvents` events are kept, so a session past it travels over that prefix alone.
        package var history: HistoryChunks
        package var notes: [Diagnostic] = []
        package var historyFull = false
        /// New coordinators past `maxCoordinators` that were counted, not added.
        package var refusedCoordinators = 0
        /// The latest judgement, of this version or an earlier one.
        package internal(set) var judged: Judgement?
        /// When the latest judgement was made and what it took, whether or not the tree changed meanwhile.
        var lastJudgement: (at: Date, cost: Double)?
        /// Loaded from a recording rather than fed by a connection: judged at its last event, as `check` judges it.
        package var frozen = false

        init(tree: SessionTree, now: Date, history: HistoryChunks = HistoryChunks()) {
            self.tree = tree
            self.lastArrival = now
            self.lastActivity = now
            self.history = history
        }

        /// Something changed: a new version, numbered `change` among all runs' changes.
        mutating func changed(_ change: Int) {
            version += 1
            changedAt = change
        }
    }

    /// A judgement of one version of a run at one moment, with the grace it was made under: everything the inspector
    /// says about the run (status line, feed, picture, model) comes from one, named by its `id`.
    package struct Judgement: Sendable {
        /// Grows with every judgement of any run: of two, the higher is the later, and shows a later state.
        package var id: Int
        package var version: Int
        package var grace: Double
        package var at: Date
        package var live: LiveSnapshot
        /// Seconds the judgement took.
        package var cost: Double
        /// When a pending coordinator turns retained with no new event: the judgement stands until then (or a change).
        package var deadline: Date?
        /// The tree it was made from, for a view that asks another grace of the same moment.
        package var tree: SessionTree
        /// Coordinators per verdict, tallied once here, outside the table's lock (a tally reads every node).
        package var counts: [Verdict: Int]

        /// `live`, judged from `tree` at `version` with `grace` at `at`, in `cost` seconds; it stands until `deadline`.
        package init(id: Int, version: Int, grace: Double, at: Date, live: LiveSnapshot, cost: Double, deadline: Date?, tree: SessionTree) {
            self.id = id
            self.version = version
            self.grace = grace
            self.at = at
            self.live = live
            self.cost = cost
            self.deadline = deadline
            self.tree = tree
            counts = live.snapshot.counts
        }

        /// Whether it still says what a judgement of `entry` would say at `now`: nothing changed and no pending
        /// coordinator's grace ran out since.
        package func stands(for entry: Entry, now: Date) -> Bool {
            version == entry.version && deadline.map { now < $0 } ?? true
        }
    }

    /// What opening a run did.
    package enum Opening: Equatable, Sendable {
        case opened
        /// Another connection holds the run: both feed one tree, with a warning in it.
        case shared
        /// The session table is full of connected sessions: the run was not opened.
        case full
    }

    /// A live session whose judgement took longer than this is judged again only after `restFactor` times as long:
    /// each judgement of a tree that keeps growing walks all of it, and judged at every refresh, a
    /// million-coordinator tree would keep a core busy and slow the very lines that grow it.
    package static let restingJudgement = 0.02
    package static let restFactor = 4.0

    package let maxKeptMalformed: Int
    package let maxSessions: Int
    package let maxHistoryEvents: Int
    package let maxCoordinators: Int

    package private(set) var entries: [String: Entry] = [:]
    /// Runs in the order they were first heard from.
    package private(set) var order: [String] = []
    /// Sessions that have ended and lost their connection so far, evicted ones included.
    package private(set) var finished = 0
    private var evictedForRoom: [SessionHeader] = []
    /// Runs changed since the page feed last asked, so it pushes what changed and nothing else.
    private var changedRuns = Set<String>()
    /// Changes so far, over all runs.
    private var changes = 0
    /// Finished runs (ended, no connection left; or loaded from a recording) whose lines are not compacted yet.
    private var compactDue = Set<String>()

    /// An empty table with these limits.
    package init(maxKeptMalformed: Int = 100, maxSessions: Int = 1_000, maxHistoryEvents: Int = 1_000_000, maxCoordinators: Int = 1_000_000) {
        self.maxKeptMalformed = maxKeptMalformed
        self.maxSessions = maxSessions
        self.maxHistoryEvents = maxHistoryEvents
        self.maxCoordinators = maxCoordinators
    }

    /// A run's tree or connections changed.
    private mutating func touch(_ run: String) {
        guard entries[run] != nil else { return }
        changes += 1
        entries[run]!.changed(changes)
        changedRuns.insert(run)
    }

    /// A connection announced `header`; a run seen before continues (the hook reconnected). `evicted` is the run
    /// dropped to make room, if one was.
    package mutating func open(_ header: SessionHeader, now: Date) -> (opening: Opening, evicted: String?) {
        var evicted: String?
        if entries[header.run] == nil {
            if entries.count >= maxSessions {
                guard let oldest = evictOldestDisconnected() else { return (.full, nil) }
                evicted = oldest
            }
            var tree = SessionTree(header: header)
            // The tree holds its string ids, so they go when the last copy of it does, not with the connection.
            tree.idScope = IDSpellingScope()
            entries[header.run] = Entry(tree: tree, now: now)
            order.append(header.run)
        }
        let shared = entries[header.run]!.connections > 0
        if shared {
            let diagnostic = Diagnostic(
                line: 0, message: "a second connection sent this run id while another still held it: their events share this tree"
            )
            entries[header.run]!.tree.report(diagnostic)
            entries[header.run]!.notes.append(diagnostic)
        }
        entries[header.run]!.connections += 1
        entries[header.run]!.lastActivity = now
        touch(header.run)
        return (shared ? .shared : .opened, evicted)
    }

    /// A connection of `run` went away; an ended run with no connection left counts as finished, once.
    package mutating func close(run: String, now: Date) {
        guard entries[run] != nil else { return }
        entries[run]!.connections -= 1
        entries[run]!.lastActivity = now
        touch(run)
        let entry = entries[run]!
        if entry.connections == 0, entry.tree.ended, !entry.finishCounted {
            entries[run]!.finishCounted = true
            finished += 1
        }
        if entry.connections == 0, entry.tree.ended, !entry.history.isCompact { compactDue.insert(run) }
    }

    /// Finished runs whose lines are to be compacted, with those lines (a copy that shares their storage); each is
    /// handed out once.
    package mutating func takeCompactable() -> [(run: String, history: HistoryChunks)] {
        defer { compactDue = [] }
        return compactDue.compactMap { run in
            guard let entry = entries[run], entry.connections == 0, !entry.history.isCompact else { return nil }
            return (run, entry.history)
        }
    }

    /// Keeps `compacted` as `run`'s lines when they are still the ones it was made from (no line came meanwhile).
    package mutating func keepCompacted(_ compacted: HistoryChunks, run: String) {
        guard let entry = entries[run], entry.connections == 0, entry.history.count == compacted.count, !entry.history.isCompact else { return }
        entries[run]!.history = compacted
    }

    /// One line of `run`'s stream.
    package mutating func apply(_ record: EventRecord, run: String, now: Date) {
        // One look-up of the run per line, then the entry changed in place: a line is applied hundreds of thousands of
        // times a second, and each look-up hashes the run id.
        guard let index = entries.index(forKey: run) else { return }
        changes += 1
        changedRuns.insert(run)
        Self.apply(
            record, to: &entries.values[index], change: changes, now: now, maxCoordinators: maxCoordinators,
            maxHistoryEvents: maxHistoryEvents)
    }

    private static func apply(
        _ record: EventRecord, to entry: inout Entry, change: Int, now: Date, maxCoordinators: Int, maxHistoryEvents: Int
    ) {
        entry.lastArrival = now
        entry.lastActivity = now
        entry.changed(change)
        if let id = record.event.addedID, entry.tree.coordinatorCount >= maxCoordinators, !entry.tree.knows(id) {
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
    package mutating func report(_ diagnostic: Diagnostic, run: String) {
        guard entries[run] != nil else { return }
        entries[run]!.tree.report(diagnostic)
        entries[run]!.notes.append(diagnostic)
        touch(run)
    }

    /// A malformed or over-long line: counted, and kept as a warning while fewer than `maxKeptMalformed` are.
    package mutating func reportUnreadable(_ diagnostic: Diagnostic, run: String) {
        guard entries[run] != nil else { return }
        entries[run]!.unreadable += 1
        touch(run)
        let count = entries[run]!.unreadable
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
        entries[run]!.tree.report(kept)
        if !entries[run]!.historyFull { entries[run]!.history.append(.malformed(kept)) }
    }

    /// Adds a whole session read from a recording and replayed to `tree`, judged from then on at its last event;
    /// false when the run is already held or the table is full.
    package mutating func load(_ log: SessionLog, replayed tree: SessionTree, now: Date) -> Bool {
        guard entries[log.header.run] == nil, entries.count < maxSessions else { return false }
        var entry = Entry(tree: tree, now: now, history: HistoryChunks(log.entries))
        entry.notes = log.notes
        entry.frozen = true
        entry.finishCounted = true
        entries[log.header.run] = entry
        order.append(log.header.run)
        compactDue.insert(log.header.run)
        changedRuns.insert(log.header.run)
        return true
    }

    /// `run` is to be taken by the next `takeChangedRuns` without a change of its own (its judgement's deadline passed).
    package mutating func markChanged(run: String) {
        if entries[run] != nil { changedRuns.insert(run) }
    }

    /// The runs changed since the last call (opened, fed, closed, warned) and the runs no longer held.
    package mutating func takeChangedRuns() -> (changed: Set<String>, gone: Set<String>) {
        let taken = changedRuns
        changedRuns = []
        return (taken.filter { entries[$0] != nil }, taken.filter { entries[$0] == nil })
    }

    /// The runs to judge now, oldest change first: those changed since they were last handed out and those whose
    /// recheck is due, less a live run resting after a costly judgement (when `resting`). Each is marked as handed
    /// out, so it comes back only when it changes again or its recheck falls due.
    package mutating func takeDue(now: Date, resting: Bool = true) -> [(run: String, entry: Entry)] {
        var due: [(run: String, entry: Entry)] = []
        for run in order {
            guard var entry = entries[run] else { continue }
            let recheck = entry.recheckAt.map { $0 <= now } ?? false
            guard entry.version != entry.judgedVersion || recheck else { continue }
            if resting, !entry.tree.ended, let last = entry.lastJudgement, last.cost > Self.restingJudgement,
                now.timeIntervalSince(last.at) < last.cost * Self.restFactor
            {
                continue
            }
            entry.judgedVersion = entry.version
            entry.recheckAt = nil
            entries[run] = entry
            due.append((run, entry))
        }
        return due.sorted { $0.entry.changedAt < $1.entry.changedAt }
    }

    /// `run` is to be judged again at `at` (a pending coordinator may turn retained then).
    package mutating func recheck(run: String, at: Date) {
        entries[run]?.recheckAt = at
    }

    /// When a judgement of a live run must be made again for its pending coordinators to turn retained on time; nil
    /// when nothing is pending, the session ended or it was read from a recording (judged at its last event).
    package static func recheckTime(of live: LiveSnapshot, grace: Double, now: Date) -> Date? {
        guard !live.snapshot.ended, !live.recorded else { return nil }
        let pendingSince = live.snapshot.nodes.lazy.filter { $0.verdict == .pending }.compactMap(\.doneAt).min()
        guard let pendingSince else { return nil }
        // Session time runs on with the wall clock while the session is quiet, so this maps one to the other.
        let turnsIn = pendingSince + grace - live.snapshot.evaluatedAt
        return now.addingTimeInterval(max(0, turnsIn) + 0.01)
    }

    /// Keeps `judgement` as `run`'s latest (the judge makes one at a time, so the latest is the newest).
    package mutating func keep(_ judgement: Judgement, run: String) {
        guard entries[run] != nil else { return }
        entries[run]!.lastJudgement = (judgement.at, judgement.cost)
        entries[run]!.judged = judgement
    }

    /// Sessions dropped since the last call to make room for a new run under `maxSessions`.
    package mutating func takeEvictedForRoom() -> [SessionHeader] {
        defer { evictedForRoom = [] }
        return evictedForRoom
    }

    /// Drops sessions with no connection and no activity for `seconds`, except `spared` runs; returns their session lines.
    package mutating func evict(idleFor seconds: Double, sparing spared: Set<String> = [], now: Date) -> [SessionHeader] {
        let gone = order.compactMap { run -> SessionHeader? in
            guard !spared.contains(run), let entry = entries[run], entry.connections == 0, now.timeIntervalSince(entry.lastActivity) >= seconds
            else { return nil }
            return entry.tree.header
        }
        remove(Set(gone.map(\.run)))
        return gone
    }

    /// Frees a slot for a new run: the disconnected one quiet the longest. Returns its run.
    private mutating func evictOldestDisconnected() -> String? {
        let oldest = order.filter { entries[$0]?.connections == 0 }
            .min { entries[$0]!.lastActivity < entries[$1]!.lastActivity }
        guard let oldest, let header = entries[oldest]?.tree.header else { return nil }
        evictedForRoom.append(header)
        remove([oldest])
        return oldest
    }

    private mutating func remove(_ runs: Set<String>) {
        guard !runs.isEmpty else { return }
        for run in runs { entries.removeValue(forKey: run) }
        order.removeAll { runs.contains($0) }
        compactDue.subtract(runs)
        changedRuns.formUnion(runs)
    }
}
