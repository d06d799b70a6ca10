@_spi(Locking) import CoordinatorWire
import Foundation

/// Records coordinator lifecycles for one session at a time; `CoordinatorTrace` forwards to a shared one.
///
/// Every call is safe from any thread and costs the caller a lock, a clock reading, an id lookup and an append to a
/// bounded queue; with no session running, one atomic load. Encoding and I/O happen on the session's writer thread.
///
/// Hand a coordinator base class a tracer, so the app uses ``shared`` and each test one of its own:
///
/// ```swift
/// let tracer = Tracer()
/// tracer.start(app: "Tests", sink: .memory())
/// tracer.added(home, to: nil)
/// tracer.added(settings, to: home)
/// tracer.bind(settings, to: settingsScreen)
/// tracer.end()
/// ```
public final class Tracer: @unchecked Sendable {
    /// The tracer behind `CoordinatorTrace`.
    public static let shared = Tracer()

    let state = LockedBox(TracerState())
    /// Open while `state` holds a session: calls with none behind them return before the lock.
    let gate = SessionGate()

    /// A tracer of its own, independent of `shared`, with no session until `start`.
    public init() {}

    /// Starts a session streaming to `sink`, ending the current one first (without waiting for its coordinators).
    public func start(app: String, sink: any TraceSink, options: TraceOptions = TraceOptions()) {
        let options = options.sanitized
        let writer = SessionWriter(app: app, run: UUID().uuidString.lowercased(), sink: sink, options: options, tracer: state)
        // Ending the old session and publishing the new one under one lock: two racing starts leave one session, and
        // the writer of the one that lost gets its last batch and stops.
        let (previous, lastWriter) = afterSweep { tracer -> (FinalBatch?, SessionWriter?) in
            let previous = FinalBatch.take(from: &tracer)
            let session = SessionState(
                app: app, run: writer.run, writer: writer, capacity: options.bufferCapacity, probes: state
            )
            writer.startNanos = session.startNanos
            tracer.session = session
            gate.set(open: true)
            // The last session's writer goes out with the lock released: its thread may have let go of it already,
            // and then this is its last reference, whose release frees the app's sink (its deinit is app code).
            defer { tracer.lastWriter = writer }
            return (previous, tracer.lastWriter)
        }
        writer.start()
        withExtendedLifetime(lastWriter) {}
        previous?.hand()
        ExitFlush.register(self)
    }

    /// What the current or last session produced and reported as dropped, as of its writer's last tick (exact once
    /// the writer has finished, which `end()` waits for within its budget); nil before the first `start`.
    public var counts: TraceCounts? {
        state.withLock { $0.lastWriter }?.counts
    }

    /// The last session's final counts, waiting up to `timeout` seconds for its writer to finish delivering: `end()`
    /// stops waiting within its budget, and a starved writer may still be at work then. Nil when it has not finished.
    @_spi(Testing) public func finalCounts(timeout: Double) -> TraceCounts? {
        guard let writer = state.withLock({ $0.lastWriter }), writer.waitUntilFinished(timeout: timeout) else { return nil }
        return writer.counts
    }

    /// The current session's run id, or nil when no session runs.
    public var runID: String? {
        state.withLock { $0.session?.run }
    }

    /// `child` joins the tree under `parent` (nil: a root); adding it again moves it.
    public func added(
        _ child: AnyObject, to parent: AnyObject?,
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function,
        filePath: StaticString = #filePath
    ) {
        guard gate.mayBeOpen else { return }
        state.withLock { $0.session?.added(child, to: parent, site: RawSite(file: file, path: filePath, line: line, function: function)) }
    }

    /// `object` (a view model, a screen, a service made for one flow) should die with `coordinator`: once that one is
    /// done, `object` is judged like a coordinator (released in time, or retained with its reason and who holds it)
    /// and drawn beside it. Call it where the object is made, for example in the coordinator's `start()`.
    public func watch(
        _ object: AnyObject, belongsTo coordinator: AnyObject,
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function,
        filePath: StaticString = #filePath
    ) {
        guard gate.mayBeOpen else { return }
        state.withLock {
            $0.session?.watched(object, with: coordinator, site: RawSite(file: file, path: filePath, line: line, function: function))
        }
    }

    /// `child` was detached from `parent` (nil: from whichever parent holds it).
    public func removed(
        _ child: AnyObject, from parent: AnyObject?,
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function,
        filePath: StaticString = #filePath
    ) {
        guard gate.mayBeOpen else { return }
        state.withLock { $0.session?.removed(child, from: parent, site: RawSite(file: file, path: filePath, line: line, function: function)) }
    }

    /// `coordinator` now drives `screen`; the screen's deallocation will count as its dismissal.
    public func bind(
        _ coordinator: AnyObject, to screen: AnyObject,
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function,
        filePath: StaticString = #filePath
    ) {
        guard gate.mayBeOpen else { return }
        state.withLock { $0.session?.bound(coordinator, to: screen, site: RawSite(file: file, path: filePath, line: line, function: function)) }
    }

    /// `coordinator`'s screen is gone or its flow finished.
    public func dismissed(
        _ coordinator: AnyObject,
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function,
        filePath: StaticString = #filePath
    ) {
        guard gate.mayBeOpen else { return }
        state.withLock { $0.session?.dismissed(coordinator, site: RawSite(file: file, path: filePath, line: line, function: function)) }
    }

    /// `screen` left the screen (dismissed, popped, swiped down, replaced as a tab's or window's root): every
    /// coordinator bound to it is dismissed, even while it or something else still holds the screen. Call it where
    /// your router learns of a departure; on Apple platforms the hook sees bound view controllers leave by itself.
    ///
    /// The call is usually a UI-layer bridge (a navigation delegate, a router), whose own line says nothing about the
    /// app, so no call site is recorded unless `file` is given (pass `file: #fileID, line: #line` to record yours).
    public func screenLeft(
        _ screen: AnyObject,
        file: StaticString? = nil, line: UInt = 0, function: StaticString? = nil,
        filePath: StaticString? = nil
    ) {
        guard gate.mayBeOpen else { return }
        let site = file.map { RawSite(file: $0, path: filePath ?? $0, line: line, function: function ?? "") }
        // Released here, after the lock: see `SessionState.screenLeft`.
        let carried = state.withLock { $0.session?.screenLeft(screen, site: site) }
        withExtendedLifetime(carried) {}
    }

    /// `screen`, which left earlier, is on screen again (a cached view controller presented anew): the coordinators it
    /// left with are shown again, alive, as a new `bind` would make them. Other appearances send nothing, so a UI-layer
    /// bridge may call it on every appearance; on Apple platforms the hook sees bound view controllers appear by itself.
    public func screenAppeared(_ screen: AnyObject) {
        guard gate.mayBeOpen else { return }
        state.withLock { $0.session?.screenAppeared(screen) }
    }

    /// At most `count`'s number of its type may be alive at once from now on; older ones beyond it are leaks.
    public func expect(
        _ count: ExpectedCount,
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function,
        filePath: StaticString = #filePath
    ) {
        guard gate.mayBeOpen else { return }
        state.withLock { $0.session?.expected(count, site: RawSite(file: file, path: filePath, line: line, function: function)) }
    }

    /// A named checkpoint, for snapshots and growth checks; every deallocation before the call is reported before it.
    public func mark(
        _ label: String,
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function,
        filePath: StaticString = #filePath
    ) {
        guard gate.mayBeOpen else { return }
        afterSweep { $0.session?.marked(label, site: RawSite(file: file, path: filePath, line: line, function: function)) }
    }

    /// Ends the session: first waits, at most `TraceOptions.grace`, for coordinators that are done but not yet freed,
    /// so the stream carries final verdicts; then searches who holds those still alive (at most
    /// `RetainerSearchOptions.totalTimeBudget`); then what is queued is written and the sink closed (waiting at most
    /// `TraceOptions.endTimeout`, and not at all for a sink that never reached its receiver), and later calls ignored.
    /// It returns within `TraceOptions.endBudget`, whatever the sink or the app's other threads do, and on the main
    /// thread within `TraceOptions.mainThreadEndBudget`.
    public func end() {
        end(onMainThread: Thread.isMainThread)
    }

    /// `end()`, bounded as on the main thread or not.
    func end(onMainThread: Bool) {
        // On the main thread the whole end fits the budget: the grace wait stops half a second (at most half the
        // budget) before it, the search a quarter second before it, and the delivery gets the rest; the writer goes on
        // delivering after that on its own thread.
        let budget = onMainThread ? state.withLock { $0.session?.writer.options.mainThreadEndBudget } : nil
        let deadline = budget.map { MonotonicClock.now() &+ UInt64($0 * 1e9) }
        func before(_ seconds: Double) -> UInt64? {
            guard let budget, let deadline else { return nil }
            return deadline &- UInt64(min(seconds, budget / 2) * 1e9)
        }
        settle(until: before(0.5))
        searchRetainers(until: before(0.25))
        afterSweep { tracer -> FinalBatch? in
            defer { gate.set(open: false) }
            return FinalBatch.take(from: &tracer)
        }?.hand(until: deadline)
    }

    /// Looks for who holds each coordinator still alive past its grace period after it was done and not answered yet,
    /// sends the paths it finds (`held`, one line per coordinator and session, from whichever search finds it first,
    /// also when searches on other threads race `end()`) and returns them; with the search off, or where it cannot run, each
    /// says why (`notSearched`). The search reads memory through copies that cannot fault and never touches the app's
    /// values (docs/HOOK.md, "Who holds it"), so any thread may call it; on Apple platforms it runs on the main thread,
    /// which owns UIKit's objects (from another thread it waits for the main thread within its budget). `end()` calls
    /// it. Bounded by `TraceOptions.retainerSearch`.
    @discardableResult
    public func searchRetainers() -> [RetainerPath] {
        searchRetainers(until: nil)
    }

    /// `searchRetainers()`, ending by the monotonic `deadline` as well as within its own budget.
    @discardableResult
    func searchRetainers(until deadline: UInt64?) -> [RetainerPath] {
        guard gate.mayBeOpen, var plan = afterSweep({ $0.session?.retainerPlan() }) else { return [] }
        guard !plan.isEmpty else { return [] }
        plan.stopAt = min(MonotonicClock.now() &+ UInt64(plan.options.totalTimeBudget * 1e9), deadline ?? .max)
        let paths = Self.searchOnOwnerThread(plan)
        let writer = plan.writer
        // The plan's strong references go before the lock is taken again, so none is the last one under it.
        plan = RetainerPlan(writer: writer, options: plan.options)
        state.withLock { tracer in
            guard tracer.session?.writer === writer else { return }
            for path in paths { tracer.session?.held(path) }
        }
        return paths
    }

    private static func search(_ plan: RetainerPlan) -> [RetainerPath] {
        guard plan.options.isEnabled else {
            return plan.notSearched("the search is off (TraceOptions.retainerSearch.isEnabled)")
        }
        #if !RetainerSearch
        return plan.notSearched("this build leaves the search out (the package's RetainerSearch trait is off)")
        #else
        let search = RetainerSearch(ids: plan.ids, screens: plan.screens, options: plan.options)
        if let reason = search.unavailableReason { return plan.notSearched(reason) }
        // No one coordinator's search may run past the plan's end.
        search.stopAt = plan.stopAt
        search.ownBuffers = [
            plan.retained.withUnsafeBufferPointer { $0.baseAddress.map { UInt(bitPattern: $0) } },
            plan.carried.withUnsafeBufferPointer { $0.baseAddress.map { UInt(bitPattern: $0) } },
        ].compactMap { $0 }
        let stop = plan.stopAt
        return plan.retained.map { retained in
            MonotonicClock.now() < stop
                ? search.path(to: retained.object, id: retained.id, roots: plan.roots, leaks: plan.leaks)
                : RetainerPath(coordinator: retained.id, type: RetainerPlan.name(of: retained.object), outcome: .budget, steps: [], visited: 0)
        }
        #endif
    }

    #if canImport(Darwin)
    /// The search on the main thread: from another thread it is handed there and waited for within the search's total
    /// budget; a main thread that does not take it in time (blocked, or waiting on this thread) gets no search.
    private static func searchOnOwnerThread(_ plan: RetainerPlan) -> [RetainerPath] {
        guard plan.options.isEnabled, !Thread.isMainThread else { return search(plan) }
        struct Handed: @unchecked Sendable { let plan: RetainerPlan }
        let handed = Handed(plan: plan)
        let result = ConditionBox<(taken: Bool, paths: [RetainerPath]?)>((false, nil))
        DispatchQueue.main.async {
            let mine = result.withLockedValue { state -> Bool in
                defer { state.taken = true }
                return !state.taken
            }
            guard mine else { return }
            let paths = search(handed.plan)
            result.withLockedValue { $0.paths = paths }
        }
        let deadline = plan.stopAt &+ 500_000_000
        let paths = result.wait { state -> ConditionBox<(taken: Bool, paths: [RetainerPath]?)>.Look<[RetainerPath]?> in
            if let paths = state.paths { return .found(paths) }
            let now = MonotonicClock.now()
            // Not taken by the deadline: taken back, so a late main thread does not search for nobody.
            if !state.taken, now >= deadline {
                state.taken = true
                return .found(nil)
            }
            return .waiting(untilMonotonic: state.taken ? now &+ 50_000_000 : deadline, now: now)
        }
        return paths ?? plan.notSearched("the main thread did not take the search within its budget")
    }
    #else
    private static func searchOnOwnerThread(_ plan: RetainerPlan) -> [RetainerPath] {
        search(plan)
    }
    #endif

    /// Waits until everything recorded so far has reached the sink, including deallocations that already happened,
    /// and, with `coordlens listen`, until it confirmed every line (or said it did not keep one, counted dropped). False
    /// on timeout, and at once with a receiver that confirms nothing.
    @discardableResult
    public func flush(timeout: Double = 2) -> Bool {
        let writer = afterSweep { $0.session?.writer }
        return writer?.flush(timeout: timeout) ?? true
    }

    /// `flush` bounded by a monotonic deadline, the wait for the lock included (for `exit`, where the thread holding
    /// it may never let go); nil when the lock was not free in time.
    func flush(until deadline: UInt64) -> Bool? {
        guard let (writer, last) = afterSweep(lockedBy: deadline, { ($0.session?.writer, $0.lastWriter) }) else { return nil }
        let now = MonotonicClock.now()
        let left = now < deadline ? Double(deadline - now) / 1e9 : 0
        if let writer { return writer.flush(timeout: left) }
        // An `end()` on the main thread returns at its budget, its writer still delivering.
        return last?.waitUntilFinished(timeout: left) ?? true
    }

    /// How far past a grace period `end()` waits, so that two times cut to microseconds on the wire differ by more.
    static let pastGraceOnTheWire: UInt64 = 2_000

    /// Waits until no finished coordinator is still alive within the grace period; a leak waits out the grace period,
    /// so that the end's time decides it.
    private func settle(until deadline: UInt64?) {
        while true {
            var cursor: SweepCursor?
            let decision = afterSweep(
                cursor: { SweepCursor(grace: $0.options.graceNanoseconds) },
                finished: { cursor = $0 },
                { tracer -> UInt64?? in tracer.session == nil ? nil : .some(cursor?.latestDecision) }
            )
            guard let decision else { return }
            let now = MonotonicClock.now()
            // Past the grace as the inspector reads the stream, whose times are microseconds cut short: an end within a
            // microsecond of it (a sleep woken right on time, the coarse clock read at that wake) read as within it.
            guard let decision = decision.map({ min($0 &+ Self.pastGraceOnTheWire, deadline ?? .max) }), now <= decision else { return }
            SettlePause.pause(nanoseconds: min(decision - now + 1, SettlePause.slice))
        }
    }
}

extension Tracer {
    /// Sweeps the current session a slice at a time (`SweepCursor`), then runs `body` in the same hold of the lock
    /// that reports the last slice: every deallocation that happened before the call is reported before
    /// what `body` queues, and no other call waits for more than one slice. A session that changes meanwhile (an
    /// `end` and a `start` on other threads) is swept from its own beginning. With no session, `body` runs at once.
    func afterSweep<Result>(
        cursor makeCursor: (SessionWriter) -> SweepCursor = { _ in SweepCursor() },
        finished: (SweepCursor) -> Void = { _ in },
        _ body: (inout TracerState) -> Result
    ) -> Result {
        afterSweep(lockedBy: nil, cursor: makeCursor, finished: finished, body)!
    }

    /// `afterSweep`, each hold of the lock waited for only until `deadline` (monotonic nanoseconds; nil: as long as it
    /// takes); nil when one was not free in time.
    func afterSweep<Result>(
        lockedBy deadline: UInt64?,
        cursor makeCursor: (SessionWriter) -> SweepCursor = { _ in SweepCursor() },
        finished: (SweepCursor) -> Void = { _ in },
        _ body: (inout TracerState) -> Result
    ) -> Result? {
        var swept: SessionWriter?
        var cursor = SweepCursor()
        while true {
            let held: Result?? = withState(lockedBy: deadline) { tracer in
                // Only the writer is read out: a copy of the session would make the sweep below copy its registry.
                guard let writer = tracer.session?.writer else { return body(&tracer) }
                if swept !== writer {
                    swept = writer
                    cursor = makeCursor(writer)
                }
                guard tracer.session!.sweep(&cursor) else { return nil }
                finished(cursor)
                return body(&tracer)
            }
            // Objects the sweep turned strong under the lock are let go here, outside it.
            cursor.carried.removeAll()
            guard let result = held else { return nil }
            if let result { return result }
            cursor.check()
        }
    }

    /// The lock, waited for until `deadline` at most (nil: as long as it takes); nil when it was not free in time.
    private func withState<Result>(lockedBy deadline: UInt64?, _ body: (inout TracerState) -> Result) -> Result? {
        guard let deadline else { return state.withLock(body) }
        while true {
            if let result = state.withLockIfAvailable(body) { return result }
            guard MonotonicClock.now() < deadline else { return nil }
            usleep(1_000)
        }
    }
}

/// What is left of a session when it ends: its writer and the events it has not drained yet.
struct FinalBatch {
    var writer: SessionWriter
    var events: [RawEvent]
    var refused: Int

    /// Ends the current session under the tracer's lock: a last sweep, the end event, and the session taken out.
    static func take(from tracer: inout TracerState) -> FinalBatch? {
        guard tracer.session != nil else { return nil }
        tracer.session!.ended()
        var events: [RawEvent] = []
        let refused = tracer.session!.queue.drain(into: &events)
        let writer = tracer.session!.writer
        tracer.session = nil
        return FinalBatch(writer: writer, events: events, refused: refused)
    }

    /// Gives the batch to its writer and waits, bounded (and by the monotonic `deadline`), until the writer has
    /// delivered and closed the sink.
    func hand(until deadline: UInt64? = nil) {
        writer.finish(with: events, refused: refused)
        // Past its deadline the writer may still reconnect once, to tell lost lines from held ones, and finish a cut
        // line as it closes (half a second each at most): waited for, with a second to spare on a loaded machine, so
        // the counts `end()` leaves are the writer's final ones. It returns as soon as the writer is done.
        var timeout = writer.options.endTimeout + 2
        if let deadline {
            let now = MonotonicClock.now()
            timeout = min(timeout, Double(deadline &- min(deadline, now)) / 1e9)
        }
        writer.waitUntilFinished(timeout: timeout)
    }
}

/// How `end()` waits: on the main thread it lets the run loop turn, so teardown that the main queue still has to
/// run (a dismissed screen released on the next turn) can happen while it waits.
enum SettlePause {
    static let slice: UInt64 = 5_000_000

    static func pause(nanoseconds: UInt64) {
        let until = Date(timeIntervalSinceNow: Double(nanoseconds) / 1e9)
        if Thread.isMainThread {
            _ = RunLoop.current.run(mode: .default, before: until)
        }
        let left = until.timeIntervalSinceNow
        if left > 0 { Thread.sleep(forTimeInterval: left) }
    }
}
