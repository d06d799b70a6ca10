/// One running session's state, shared by the calling threads and the writer, always behind the tracer's lock.
///
/// Every event is stamped here, under the lock, so times grow with the order of events and never precede the
/// session's start.
struct SessionState {
    let app: String
    let run: String
    let startNanos: UInt64
    /// The session's writer, also its identity: a writer or a probe acts only on the session it belongs to.
    let writer: SessionWriter
    var queue: EventQueue
    var registry = ObjectRegistry()
    /// Coordinators whose `held` line is queued: one each per session, from whichever search found it first.
    var heldWritten: Set<Int> = []
    /// The writer is asleep with nothing to do (`SessionWriter.fallAsleep`): the next event wakes it.
    var writerAsleep = false
    #if canImport(ObjectiveC)
    let probes: ProbeRoute
    #endif

    init(app: String, run: String, writer: SessionWriter, capacity: Int, probes: ProbeRouteSource) {
        self.app = app
        self.run = run
        self.startNanos = MonotonicClock.now()
        self.writer = writer
        self.queue = EventQueue(capacity: capacity)
        #if canImport(ObjectiveC)
        self.probes = ProbeRoute(tracer: probes, writer: writer)
        #endif
    }

    mutating func added(_ child: AnyObject, to parent: AnyObject?, site: RawSite) {
        let now = MonotonicClock.now()
        // Both entries are the registry's for the whole call (it only ever adds here), so they are used borrowed:
        // retained and released, they were four of the call's atomic operations beside the lock's two.
        let tracked = trackBorrowed(child)
        let parentTracked = parent.map { trackBorrowed($0) }
        let parentID = parentTracked.map { $0._withUnsafeGuaranteedRef { $0.id } } ?? 0
        let id = tracked._withUnsafeGuaranteedRef { entry in
            // An add under itself is refused by the inspector; here it would also tie the entry to itself forever.
            guard parentTracked?.toOpaque() != tracked.toOpaque() else { return entry.id }
            let current = entry.parent.map { Unmanaged.passUnretained($0).toOpaque() }
            // Added again under the parent it has (the usual case): the reference it holds stays as it is.
            if current != parentTracked?.toOpaque() { entry.parent = parentTracked?.takeUnretainedValue() }
            entry.attachedAt = now
            entry.removedAt = 0
            return entry.id
        }
        enqueue(
            RawEvent(
                kind: .add, id: id, other: parentID, nanos: now, type: type(of: child),
                file: site.file, path: site.path, line: site.line, function: site.function
            ))
    }

    /// `object` should die with `coordinator`: tracked like a coordinator attached under it, done when it is done.
    mutating func watched(_ object: AnyObject, with coordinator: AnyObject, site: RawSite?) {
        watched(object, with: track(coordinator), site: site)
    }

    private mutating func watched(_ object: AnyObject, with owner: TrackedCoordinator, site: RawSite?) {
        let now = MonotonicClock.now()
        let tracked = track(object)
        guard owner !== tracked, !(tracked.diesWithParent && tracked.parent === owner) else { return }
        tracked.parent = owner
        tracked.diesWithParent = true
        tracked.attachedAt = now
        tracked.removedAt = 0
        enqueue(
            RawEvent(
                kind: .watch, id: tracked.id, other: owner.id, nanos: now, type: type(of: object),
                file: site?.file, path: site?.path, line: site?.line ?? 0, function: site?.function
            ))
    }

    mutating func removed(_ child: AnyObject, from parent: AnyObject?, site: RawSite) {
        let now = MonotonicClock.now()
        let tracked = track(child)
        let parentTracked = parent.map { track($0) }
        // The inspector ignores a remove from a parent that does not hold it; so does the hook's idea of "done".
        if let holder = tracked.parent, parentTracked == nil || parentTracked === holder {
            tracked.parent = nil
            if tracked.removedAt == 0 { tracked.removedAt = now }
        }
        enqueue(
            RawEvent(
                kind: .remove, id: tracked.id, other: parentTracked?.id ?? 0, nanos: now,
                file: site.file, path: site.path, line: site.line, function: site.function
            ))
    }

    mutating func bound(_ coordinator: AnyObject, to screen: AnyObject, site: RawSite) {
        bind(track(coordinator), to: screen, site: site)
    }

    private mutating func bind(_ tracked: TrackedCoordinator, to screen: AnyObject, site: RawSite?) {
        let now = MonotonicClock.now()
        // Shown again after a dismissal (a cached coordinator reused): in use again, as the inspector judges it, so
        // `end()` no longer waits for it to be freed.
        tracked.dismissedAt = 0
        let bound = BoundScreen(screen, of: tracked)
        registry.bind(tracked.id, to: bound)
        #if canImport(ObjectiveC)
        probes.watchScreen(screen, bound)
        #endif
        #if canImport(UIKit) && canImport(ObjectiveC)
        if writer.options.detectsScreenDepartures { ScreenDepartureWatch.watch(screen, route: probes) }
        #endif
        enqueue(
            RawEvent(
                kind: .bind, id: tracked.id, nanos: now, type: type(of: screen),
                file: site?.file, path: site?.path, line: site?.line ?? 0, function: site?.function
            ))
    }

    mutating func dismissed(_ coordinator: AnyObject, site: RawSite) {
        let now = MonotonicClock.now()
        let tracked = track(coordinator)
        markDismissed(tracked, at: now)
        enqueue(RawEvent(kind: .dismiss, id: tracked.id, nanos: now, file: site.file, path: site.path, line: site.line, function: site.function))
    }

    /// `screen` left the screen: every coordinator bound to it now is done, even while something still holds the
    /// screen (a coordinator that owns its view controller). A screen no coordinator is bound to sends nothing.
    /// Returns the objects it turned strong, for the caller to let go of after the lock is released.
    mutating func screenLeft(_ screen: AnyObject, site: RawSite?) -> [AnyObject] {
        let bound = registry.boundTo(screen)
        guard !bound.isEmpty else { return [] }
        var carried: [AnyObject] = []
        registry.noteDeparted(bound, carried: &carried)
        let now = MonotonicClock.now()
        #if canImport(UIKit)
        // As MLeaksFinder does: a view controller that left should be freed with its coordinator, or soon after.
        if writer.options.watchesDepartedScreens {
            for screen in bound {
                guard let object = screen.object else { continue }
                carried.append(object)
                watched(object, with: screen.coordinator, site: nil)
            }
        }
        #endif
        for screen in bound {
            markDismissed(screen.coordinator, at: now)
            enqueue(
                RawEvent(
                    kind: .screenLeft, id: screen.coordinator.id, nanos: now,
                    file: site?.file, path: site?.path, line: site?.line ?? 0, function: site?.function
                ))
        }
        return carried
    }

    /// `screen` is on screen again after it left: each coordinator it left with, still done and bound to nothing else,
    /// is bound to it again (a `bind` without a call site), so the inspector sees it shown again. Any other appearance
    /// sends nothing.
    mutating func screenAppeared(_ screen: AnyObject) {
        for tracked in registry.takeDeparted(screen) { bind(tracked, to: screen, site: nil) }
    }

    /// What a retainer search needs now (with the search off, the coordinators to say so of), `isEmpty` when nothing
    /// new is retained. It holds every object it turned strong, also those it does not search from, so that the caller
    /// lets go of them after the lock is released: the last release of one, and so its `deinit`, never runs under it.
    mutating func retainerPlan() -> RetainerPlan {
        let options = writer.options.retainerSearch
        let now = MonotonicClock.now()
        let grace = writer.options.graceNanoseconds
        var plan = RetainerPlan(writer: writer, options: options)
        for tracked in registry.watchedCoordinators {
            guard let object = tracked.object else { continue }
            plan.ids[ObjectIdentifier(object)] = tracked.id
            if let done = tracked.doneAt {
                let isLeak = tracked.deinitAt == 0 && now >= done &+ grace
                if isLeak { plan.leaks.append(object) }
                // Not marked here: a search on another thread may plan it and lose its result to `end()`, which
                // then searches it again; the first result queued is its line.
                guard isLeak, !heldWritten.contains(tracked.id) else {
                    if !isLeak { plan.carried.append(object) }
                    continue
                }
                plan.retained.append((object, tracked.id))
            } else {
                plan.roots.append(object)
                if let screen = registry.screens[tracked.id]?.object {
                    plan.roots.append(screen)
                    plan.screens[ObjectIdentifier(screen)] = "\(_typeName(type(of: object), qualified: false))#\(tracked.id)"
                }
            }
        }
        return plan
    }

    /// Queues a retainer search's result, unless another search's result for the same coordinator came first.
    mutating func held(_ path: RetainerPath) {
        guard heldWritten.insert(path.coordinator).inserted else { return }
        enqueue(RawEvent(kind: .held, id: path.coordinator, nanos: MonotonicClock.now(), retainers: HeldPath(path)))
    }

    mutating func expected(_ count: ExpectedCount, site: RawSite) {
        var event = count.rawEvent(at: MonotonicClock.now())
        (event.file, event.path, event.line, event.function) = (site.file, site.path, site.line, site.function)
        enqueue(event)
    }

    /// A mark; the caller finished a sweep in the same hold of the lock (`Tracer.afterSweep`), so every deallocation
    /// that happened before the call is in the stream before the mark.
    mutating func marked(_ label: String, site: RawSite) {
        enqueue(
            RawEvent(
                kind: .mark, id: 0, nanos: MonotonicClock.now(), label: label,
                file: site.file, path: site.path, line: site.line, function: site.function
            ))
    }

    mutating func heartbeat() {
        enqueue(RawEvent(kind: .heartbeat, id: 0, nanos: MonotonicClock.now()))
    }

    /// Queues the session's end (after a last sweep, as for `marked`); it is never refused.
    mutating func ended() {
        queue.appendAlways(RawEvent(kind: .end, id: 0, nanos: MonotonicClock.now()))
    }

    /// One hold of the lock in a sweep: reports what the cursor found gone in the slice it checked, then copies the
    /// next slice into it (to `check` after the lock is released); true once the pass is over, with nothing taken.
    /// Where probes report deaths the moment they happen (Apple platforms) there is nothing to find, and a pass only
    /// looks for the latest decision when the cursor asks for it.
    mutating func sweep(_ cursor: inout SweepCursor, limit: Int = SweepCursor.slice) -> Bool {
        #if canImport(ObjectiveC)
        cursor.checksObjects = false
        if cursor.grace == nil { (cursor.screens, cursor.coordinators) = (0, 0) }
        #endif
        report(&cursor)
        guard !(cursor.screens == 0 && cursor.coordinators == 0) else { return true }
        registry.copySlice(into: &cursor, limit: limit, checksObjects: cursor.checksObjects)
        return false
    }

    private mutating func report(_ cursor: inout SweepCursor) {
        if !cursor.screensGone.isEmpty || !cursor.coordinatorsGone.isEmpty {
            let now = MonotonicClock.now()
            cursor.screensGone.sort { $0.coordinator.id < $1.coordinator.id }
            cursor.coordinatorsGone.sort { $0.id < $1.id }
            // A screen freed with its coordinator: its dismiss goes first, as it would have with a probe.
            for screen in cursor.screensGone { screenDeallocated(screen, at: now) }
            for tracked in cursor.coordinatorsGone {
                if let screen = registry.screens[tracked.id] {
                    if let object = screen.object { cursor.carried.append(object) } else { screenDeallocated(screen, at: now) }
                }
                deallocated(tracked, at: now)
            }
        }
        if let grace = cursor.grace {
            for coordinator in cursor.coordinatorsTaken where coordinator.deinitAt == 0 {
                guard let done = coordinator.doneAt else { continue }
                cursor.latestDecision = max(cursor.latestDecision ?? 0, done &+ grace)
            }
        }
        cursor.screensGone.removeAll(keepingCapacity: true)
        cursor.coordinatorsGone.removeAll(keepingCapacity: true)
        cursor.screensTaken.removeAll(keepingCapacity: true)
        cursor.coordinatorsTaken.removeAll(keepingCapacity: true)
    }

    /// A coordinator's deallocation, from a sweep or a probe.
    mutating func deallocated(_ tracked: TrackedCoordinator, at now: UInt64) {
        guard tracked.deinitAt == 0 else { return }
        tracked.deinitAt = now
        registry.forget(tracked)
        enqueue(RawEvent(kind: .deinitialized, id: tracked.id, nanos: now))
    }

    /// A bound screen's deallocation, from a sweep or a probe: its coordinator's dismissal if it is still that one's
    /// screen.
    mutating func screenDeallocated(_ screen: BoundScreen, at now: UInt64) {
        guard registry.isCurrent(screen) else { return }
        markDismissed(screen.coordinator, at: now)
        enqueue(RawEvent(kind: .screenFreed, id: screen.coordinator.id, nanos: now))
    }

    private mutating func markDismissed(_ tracked: TrackedCoordinator, at now: UInt64) {
        registry.bind(tracked.id, to: nil)
        if tracked.dismissedAt == 0 { tracked.dismissedAt = now }
    }

    /// `track` without a reference count taken: valid while the registry holds the entry, which is until a sweep or
    /// a probe forgets it, never within the caller's own call.
    @inline(__always)
    private mutating func trackBorrowed(_ object: AnyObject) -> Unmanaged<TrackedCoordinator> {
        let (tracked, isNew) = registry.trackBorrowed(object)
        #if canImport(ObjectiveC)
        if isNew { probes.watchCoordinator(object, tracked.takeUnretainedValue()) }
        #else
        _ = isNew
        #endif
        return tracked
    }

    private mutating func track(_ object: AnyObject) -> TrackedCoordinator {
        let (tracked, isNew) = registry.track(object)
        #if canImport(ObjectiveC)
        if isNew { probes.watchCoordinator(object, tracked) }
        #else
        _ = isNew
        #endif
        return tracked
    }
}

extension SessionState {
    /// Queues an event, waking the writer if it sleeps: one branch on the callers' path, a wake-up only for the first
    /// event after the app was quiet.
    @inline(__always)
    mutating func enqueue(_ event: RawEvent) {
        queue.append(event)
        if writerAsleep {
            writerAsleep = false
            writer.wake()
        }
    }
}

/// A call site as static strings and a number: nothing to copy or encode on the caller's thread.
struct RawSite {
    var file: StaticString
    /// `#filePath`, which editors and CI systems can open; `file` (`#fileID`) is what reports show.
    var path: StaticString
    var line: UInt
    var function: StaticString
}
