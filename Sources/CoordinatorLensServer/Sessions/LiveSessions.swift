import CoordinatorLens
import Foundation
import NIOConcurrencyHelpers

/// Every session the inspector holds in memory, each with its live tree; shared by all connections.
///
/// The rules live in `SessionTable`; this shell puts it behind a lock and judges outside it. Ingestion holds the lock
/// only to apply a line. Snapshots copy a tree under the lock (copy-on-write, in chunks, makes that cheap) and judge it
/// outside, so a big tree never stalls the connections.
///
/// One judge: a run is judged when its version changed or its judgement's deadline (the earliest pending
/// coordinator's grace running out) passed, one judgement at a time, by whichever reader asks first (the feed's round,
/// the refresher, a page's request) while the others wait for it and share it. Everything said about a run comes from
/// its latest judgement, and judgements are numbered in the order made, so no reader is handed one older than a
/// judgement already handed out.
package final class LiveSessions: Sendable {
    /// The runs held and their latest judgements.
    private struct Shown {
        var order: [String] = []
        var judgements: [String: SessionTable.Judgement] = [:]

        mutating func forget(_ runs: some Sequence<String>) {
            let runs = Set(runs)
            guard !runs.isEmpty else { return }
            for run in runs { judgements.removeValue(forKey: run) }
            order.removeAll { runs.contains($0) }
        }
    }

    private let table: NIOLockedValueBox<SessionTable>
    /// Behind a lock of its own: a page that connects reads it without waiting for the table's, which a line that
    /// grows a huge tree holds for a while. Taken inside `table`'s when both are, never the other way round.
    private let shown = NIOLockedValueBox(Shown())
    /// The judge: held while a judgement is made, so they are made one at a time; the last judgement's id. Taken
    /// before `table`'s, never inside it.
    private let judging = NIOLockedValueBox(0)
    /// Counts every judgement adds to the app's own (`--max-alive`, `--reusable`, …).
    package let aliveLimits: [AliveLimit]
    /// The grace period runs are judged with; a view that asks another gets the same moment judged with it.
    package let grace: Double
    /// The inspector's clock: tests drive one of their own.
    package let clock: @Sendable () -> Date
    /// Runs held at most; a new one evicts the disconnected run quiet the longest.
    let maxSessions: Int

    /// No sessions yet; a hook connection adds its session when it sends the session line.
    package init(
        maxKeptMalformed: Int = 100, maxSessions: Int = 1_000, maxHistoryEvents: Int = 1_000_000, maxCoordinators: Int = 1_000_000,
        aliveLimits: [AliveLimit] = [], grace: Double = 2, clock: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.aliveLimits = aliveLimits
        self.maxSessions = maxSessions
        self.grace = grace
        self.clock = clock
        table = NIOLockedValueBox(
            SessionTable(
                maxKeptMalformed: maxKeptMalformed, maxSessions: maxSessions, maxHistoryEvents: maxHistoryEvents,
                maxCoordinators: maxCoordinators))
    }

    /// Connections closed because their first line was no session line (junk on the hook port), so far.
    private let junkConnections = NIOLockedValueBox(0)

    /// Counts one more such connection; the count so far.
    func noteJunkConnection() -> Int {
        junkConnections.withLockedValue {
            $0 += 1
            return $0
        }
    }

    /// Connections closed without becoming a session, so far.
    package var junkConnectionCount: Int {
        junkConnections.withLockedValue { $0 }
    }

    /// Sessions that have ended and lost their connection so far, evicted ones included.
    package var finishedCount: Int {
        table.withLockedValue { $0.finished }
    }

    /// Runs held in memory, in the order they were first heard from.
    package var runs: [String] {
        table.withLockedValue { $0.order }
    }

    /// A connection announced `header`; a run seen before continues (the hook reconnected).
    package func open(_ header: SessionHeader, now: Date = Date()) -> SessionTable.Opening {
        table.withLockedValue { table in
            let known = table.entries[header.run] != nil
            let (opening, evicted) = table.open(header, now: now)
            if opening != .full, !known {
                shown.withLockedValue { shown in
                    if let evicted { shown.forget([evicted]) }
                    shown.order.append(header.run)
                }
            }
            return opening
        }
    }

    func close(run: String, now: Date = Date()) {
        table.withLockedValue { $0.close(run: run, now: now) }
    }

    package func apply(_ record: EventRecord, run: String, now: Date = Date()) {
        table.withLockedValue { $0.apply(record, run: run, now: now) }
    }

    /// A problem that belongs to the session rather than to a line: always kept.
    func report(_ diagnostic: Diagnostic, run: String) {
        table.withLockedValue { $0.report(diagnostic, run: run) }
    }

    /// A malformed or over-long line: counted, and kept as a warning while fewer than the table keeps.
    func reportUnreadable(_ diagnostic: Diagnostic, run: String) {
        table.withLockedValue { $0.reportUnreadable(diagnostic, run: run) }
    }

    /// Adds a whole session read from a recording, judged from then on at its last event, as `check` judges it;
    /// false when the run is already held or the table is full.
    package func load(_ log: SessionLog, now: Date = Date()) -> Bool {
        let replayed = (try? log.replay(until: .end))?.tree ?? SessionTree(header: log.header)
        return table.withLockedValue { table in
            guard table.load(log, replayed: replayed, now: now) else { return false }
            shown.withLockedValue { $0.order.append(log.header.run) }
            return true
        }
    }

    /// The latest judgement of `run` (nil when it is not held): the one kept while it stands, else a new one, made by
    /// the judge (see the type's comment).
    package func judgement(run: String, now: Date? = nil) -> SessionTable.Judgement? {
        let now = now ?? clock()
        return judging.withLockedValue { last in
            guard let entry = table.withLockedValue({ $0.entries[run] }) else { return nil }
            if let kept = entry.judged, kept.stands(for: entry, now: now) { return kept }
            last += 1
            let started = Date()
            var live = Self.judge(entry, grace: grace, limits: aliveLimits, now: now)
            live.judgement = last
            let judgement = SessionTable.Judgement(
                id: last, version: entry.version, grace: grace, at: now, live: live, cost: Date().timeIntervalSince(started),
                deadline: SessionTable.recheckTime(of: live, grace: grace, now: now), tree: entry.tree)
            table.withLockedValue { table in
                table.keep(judgement, run: run)
                shown.withLockedValue { $0.judgements[run] = judgement }
            }
            return judgement
        }
    }

    /// `run` as its latest judgement says (nil when it is not held); with another grace than the judge's, the same
    /// moment of the same tree judged with that grace, named by the same judgement.
    package func live(run: String, grace: Double, now: Date? = nil) -> LiveSnapshot? {
        guard let judgement = judgement(run: run, now: now) else { return nil }
        guard grace != judgement.grace else { return judgement.live }
        var live = judgement.live
        live.snapshot = judgement.tree.snapshot(at: judgement.live.snapshot.evaluatedAt, grace: grace, limits: aliveLimits)
        return live
    }

    /// What an answer about `run` would be built from, cheaply (the page's shared answers): its latest judgement's id
    /// (nil when none was made yet) and whether a new one is due; nil when it is not held.
    func stamp(run: String, now: Date? = nil) -> SharedAnswers.Stamp? {
        let now = now ?? clock()
        return table.withLockedValue { table in
            table.entries[run].map { entry in
                SharedAnswers.Stamp(judgement: entry.judged?.id, due: !(entry.judged?.stands(for: entry, now: now) ?? false))
            }
        }
    }

    /// A run's lines so far, to replay up to an earlier point, and whether events past the history limit were left
    /// out of it.
    package func history(run: String) -> (log: SessionLog, complete: Bool)? {
        let kept = table.withLockedValue { $0.entries[run].map { ($0.history, $0.notes, $0.tree, !$0.historyFull) } }
        return kept.map { history, notes, tree, complete in
            (history.log(header: tree.header, notes: notes, idScope: tree.idScope), complete)
        }
    }

    /// A run's kept lines as they are held (a copy that shares their storage, taken in a moment), to ask for the seqs
    /// the slider reaches or one event without building the whole log; and whether events past the history limit were
    /// left out.
    func historyChunks(run: String) -> (chunks: HistoryChunks, complete: Bool)? {
        table.withLockedValue { $0.entries[run].map { ($0.history, !$0.historyFull) } }
    }

    /// The runs changed since the last call (opened, fed, closed, warned) and the runs no longer held.
    func takeChangedRuns() -> (changed: Set<String>, gone: Set<String>) {
        table.withLockedValue { $0.takeChangedRuns() }
    }

    /// `run`'s judgement deadline passed: the feed's next round takes it as changed, to judge it again.
    func markDue(run: String) {
        table.withLockedValue { $0.markChanged(run: run) }
    }

    /// Each session as its latest judgement says (judged anew where one is due).
    package func snapshots(grace: Double, now: Date? = nil) -> [LiveSnapshot] {
        let now = now ?? clock()
        return runs.compactMap { live(run: $0, grace: grace, now: now) }
    }

    /// Each session's latest judgement with `grace`, however many lines arrived since, and a new one only for a session
    /// never judged: what a page that connects gets at once, so a session that grows by the second never keeps it
    /// waiting for a judgement of its whole tree. The feed's next round brings each one up to date.
    func latestSnapshots(grace: Double, now: Date? = nil) -> [LiveSnapshot] {
        let (runs, kept) = shown.withLockedValue { ($0.order, $0.judgements) }
        return runs.compactMap { run in
            if let judgement = kept[run], judgement.grace == grace { return judgement.live }
            return live(run: run, grace: grace, now: now)
        }
    }

    /// The sessions that changed since the last call, and those whose pending coordinators may have turned retained
    /// since, with their latest judgements; every other session is left alone.
    package func changes(now: Date? = nil, resting: Bool = true) -> [LiveSnapshot] {
        let now = now ?? clock()
        let due = table.withLockedValue { $0.takeDue(now: now, resting: resting) }
        let judged = due.compactMap { judgement(run: $0.run, now: now) }
        // Worked out outside the lock; only the results are stored under it.
        let rechecks = judged.compactMap { judgement in judgement.deadline.map { (judgement.live.snapshot.run, $0) } }
        if !rechecks.isEmpty {
            table.withLockedValue { table in
                for (run, at) in rechecks { table.recheck(run: run, at: at) }
            }
        }
        return judged.map(\.live)
    }

    /// Encodes the lines of the sessions that finished since the last call (ended with no connection left, or loaded
    /// from a recording), outside the lock, so each keeps its tree and judgement and a few bytes an event instead of
    /// its whole list of events; returns how many. Blocks for a while on a big session: call it off the event loops.
    @discardableResult
    func compactFinished() -> Int {
        // The lines handed out go before the memory is handed back: they are the last copy of the old lists.
        let compacted = compactDue()
        if compacted > 0 { Self.returnFreedMemory() }
        return compacted
    }

    private func compactDue() -> Int {
        let due = table.withLockedValue { $0.takeCompactable() }
        for (run, history) in due {
            let compacted = history.compact()
            table.withLockedValue { $0.keepCompacted(compacted, run: run) }
        }
        return due.count
    }

    /// Keeps glibc's allocator to two arenas (unless `MALLOC_ARENA_MAX` says otherwise): by default it makes one per
    /// thread that contends, up to eight per core, and each keeps the high-water mark of what its thread once built (a
    /// page's model, a judgement), so 200 pages polling a big session held 600 MB where two arenas hold 400 MB, at the
    /// same speed (`make bench`, Benchmarks/readers.py). Called once, as the server starts.
    static func limitAllocatorArenas() {
        #if canImport(Glibc)
        guard ProcessInfo.processInfo.environment["MALLOC_ARENA_MAX"] == nil else { return }
        typealias Option = @convention(c) (Int32, Int32) -> Int32
        // M_ARENA_MAX in glibc's malloc.h.
        if let mallopt = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") {
            _ = unsafeBitCast(mallopt, to: Option.self)(-8, 2)
        }
        #endif
    }

    /// Has glibc's allocator give every block of 1 MiB or more pages of its own, returned to the system when freed
    /// (unless `MALLOC_MMAP_THRESHOLD_` says otherwise). By default the threshold rises to the largest block freed, up to
    /// 32 MiB, so a page's model or picture of a big session (15 MB, and the buffers it is built in) was carved from an
    /// arena whose pages stayed resident after it: 200 pages polling a 150,000-event session peaked at 440–530 MB,
    /// and at 290–300 MB with this (`make bench`, Benchmarks/readers.py). Called once, as the server starts.
    static func mapLargeBlocksApart() {
        #if canImport(Glibc)
        guard ProcessInfo.processInfo.environment["MALLOC_MMAP_THRESHOLD_"] == nil else { return }
        typealias Option = @convention(c) (Int32, Int32) -> Int32
        // M_MMAP_THRESHOLD in glibc's malloc.h; setting it also stops the threshold from rising.
        if let mallopt = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") {
            _ = unsafeBitCast(mallopt, to: Option.self)(-3, 1 << 20)
        }
        #endif
    }

    /// Hands memory freed by the allocator back to the system, so what a finished or evicted session let go shows in
    /// the process's resident size (glibc keeps freed pages otherwise).
    static func returnFreedMemory() {
        #if canImport(Glibc)
        // Looked up rather than linked: glibc has it, other C libraries may not.
        typealias Trim = @convention(c) (Int) -> Int32
        if let trim = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") {
            _ = unsafeBitCast(trim, to: Trim.self)(0)
        }
        #endif
    }

    /// Sessions dropped since the last call to make room for a new run under the session limit.
    func takeEvictedForRoom() -> [SessionHeader] {
        table.withLockedValue { $0.takeEvictedForRoom() }
    }

    /// Drops sessions with no connection and no activity for `seconds`, except `spared` runs; returns their session lines.
    func evict(idleFor seconds: Double, sparing spared: Set<String> = [], now: Date = Date()) -> [SessionHeader] {
        table.withLockedValue { table in
            let gone = table.evict(idleFor: seconds, sparing: spared, now: now)
            shown.withLockedValue { $0.forget(gone.map(\.run)) }
            return gone
        }
    }

    private static func judge(_ entry: SessionTable.Entry, grace: Double, limits: [AliveLimit], now: Date) -> LiveSnapshot {
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
    /// The judgement it comes from (`SessionTable.Judgement.id`): of two, the higher shows the later state.
    package var judgement = 0

    /// A judged session and what its stream said besides the tree.
    package init(snapshot: Snapshot, version: Int, connected: Bool, events: Int, unreadableLines: Int, recorded: Bool = false) {
        self.snapshot = snapshot
        self.version = version
        self.connected = connected
        self.events = events
        self.unreadableLines = unreadableLines
        self.recorded = recorded
    }
}
