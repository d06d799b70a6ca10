@_spi(Locking) import CoordinatorWire
import Foundation

/// The session's background thread: it takes what callers queued, numbers and encodes it, sweeps for freed objects
/// where no probe reports them, sends heartbeats while the app is quiet, and hands lines to the sink. Everything slow
/// in the hook happens here.
final class SessionWriter: @unchecked Sendable {
    let app: String
    let run: String
    let options: TraceOptions
    /// The session's start on the hook's clock; set once, under the tracer's lock, before the session is visible.
    var startNanos: UInt64 = 0
    let sink: any TraceSink
    /// The sink as one whose receiver confirms lines (`TCPSink`), looked up once.
    let acknowledged: (any AcknowledgedSink)?
    /// Weak: a tracer that is freed without `end()` lets its writer deliver what it has and stop.
    private(set) weak var tracer: LockedBox<TracerState>?

    /// What the callers and the writer thread tell each other, and the counts the writer publishes.
    private struct Signals {
        var flushRequested = 0
        var flushCompleted = 0
        var finished = false
        var finalBatch: (events: [RawEvent], refused: Int)?
        /// `tally` as of the writer's last tick.
        var published = TraceCounts(events: 0, dropped: 0)
        /// The last seq encoded when the latest flush request was completed: what that flush waits to see confirmed.
        var flushTarget = 0
        /// Every line up to this seq is confirmed by the receiver or counted dropped (`Int.max` for a sink whose
        /// receiver confirms nothing by design: a file, memory).
        var confirmedThrough = 0
        /// False once the receiver turned out not to confirm lines (an inspector older than acknowledgements).
        var confirmable = true
        /// A caller queued the first event since the writer went to sleep (`SessionState.writerAsleep`).
        var woken = false
        /// How often the writer thread woke up: the idle cost the tests and the bench measure.
        var wakeUps = 0
    }

    private let signals = ConditionBox(Signals())

    // Owned by the writer thread alone.
    /// Events taken from the callers' queue, processed up to `pendingStart`.
    var pending: [RawEvent] = []
    var pendingStart = 0
    var seq = 0
    var lastEventNanos: UInt64 = 0
    var typeNames: [ObjectIdentifier: [UInt8]] = [:]
    var callSite = QuotedStaticStrings()
    var pairing = CallSitePairing()
    /// `#filePath`s, with `TraceOptions.sourceRoot` taken off.
    var paths: QuotedStaticStrings
    var backlog: [[UInt8]] = []
    var backlogStart = 0
    var lostInBacklog = 0
    /// Events the callers' queue refused, not yet reported.
    var refused = 0
    /// The latest flush request completed, its target, and how far the receiver confirmed (see `Signals`).
    var lastCompletedRequest = 0
    var flushTarget = 0
    var confirmedThrough = 0
    /// Whether the app's console was told that the inspector did not keep some lines.
    var refusalTold = false
    /// The periodic sweep's place: it checks at most `sweepBudget` objects a tick, a slice per hold of the lock, and
    /// goes on from here at the next tick.
    var sweepCursor = SweepCursor()
    var lastSweep: UInt64 = 0
    /// As of the last finished sweep, when the last finished coordinator still alive within its grace period is
    /// decided (see `fallAsleep`).
    var decidesAt: UInt64?
    /// Whether the `end` line went into the backlog, with the seq it took.
    var endSeq: Int?
    /// The session's own account, kept by the writer thread alone (so counting a line takes no lock) and published
    /// to `counts` once a tick and at the end.
    var tally = TraceCounts(events: 0, dropped: 0)
    static let sweepBudget = 8_192
    /// A drain of at least this many events means a burst: the writer looks again within a millisecond.
    static let burstEvents = 1_024
    var lastDrained = 0
    /// Whether the last drain took only the heartbeat the writer queued itself: quiet still, so it may sleep again.
    var drainedOnlyHeartbeat = false

    init(app: String, run: String, sink: any TraceSink, options: TraceOptions, tracer: LockedBox<TracerState>) {
        self.app = app
        self.run = run
        self.sink = sink
        acknowledged = sink as? any AcknowledgedSink
        self.options = options
        self.tracer = tracer
        paths = QuotedStaticStrings(trimming: options.sourceRoot)
        sweepCursor = SweepCursor(grace: options.graceNanoseconds)
    }

    func start() {
        let thread = Thread { [self] in loop() }
        thread.name = "CoordinatorTrace.writer"
        thread.start()
    }

    /// Waits until everything queued before the call has been handed to the sink and, with a receiver that confirms
    /// lines (`coordlens listen`), confirmed by it or counted dropped; false on timeout, and at once when the receiver
    /// turned out to confirm nothing.
    @discardableResult
    func flush(timeout: Double) -> Bool {
        let deadline = MonotonicClock.now() &+ UInt64(max(0, timeout) * 1e9)
        let mine = signals.withLockedValue { signals in
            signals.flushRequested += 1
            return signals.flushRequested
        }
        return signals.wait { signals in
            if signals.flushCompleted >= mine || signals.finished {
                if !signals.confirmable { return .found(false) }
                if signals.confirmedThrough >= signals.flushTarget { return .found(true) }
                if signals.finished { return .found(false) }
            }
            let now = MonotonicClock.now()
            return now < deadline ? .waiting(untilMonotonic: deadline, now: now) : .found(false)
        }
    }

    /// Waits until `done` holds for the signals or the monotonic `deadline` passes; whether it held.
    private func waitFor(until deadline: UInt64, _ done: (Signals) -> Bool) -> Bool {
        signals.wait { signals in
            if done(signals) { return .found(true) }
            let now = MonotonicClock.now()
            return now < deadline ? .waiting(untilMonotonic: deadline, now: now) : .found(false)
        }
    }

    /// The session has ended: these are its last events, the `end` among them.
    func finish(with events: [RawEvent], refused: Int) {
        signals.withLockedValue { $0.finalBatch = (events, refused) }
    }

    /// The session's events as of the writer's last tick (exact once it has ended), those refused by the queue
    /// included, and the total its `dropped` lines reported.
    var counts: TraceCounts {
        signals.withLockedValueWaking { (result: $0.published, wake: false) }
    }

    func count(events: Int = 0, dropped: Int = 0) {
        tally.events += events
        tally.dropped += dropped
    }

    /// Wakes the writer from an idle sleep; a caller does it, under the tracer's lock, for the first event it queues
    /// after the writer went to sleep (the writer never takes the tracer's lock while it holds its own).
    func wake() {
        signals.withLockedValue { $0.woken = true }
    }

    /// How many times the writer thread woke so far.
    var wakeUps: Int {
        signals.withLockedValueWaking { (result: $0.wakeUps, wake: false) }
    }

    /// Waits until the writer has delivered its last batch and closed the sink; false on timeout.
    @discardableResult
    func waitUntilFinished(timeout: Double) -> Bool {
        waitFor(until: MonotonicClock.now() &+ UInt64(max(0, timeout) * 1e9)) { $0.finished }
    }

    func loop() {
        lastEventNanos = startNanos
        var header = LineEncoder()
        header.open()
        header.field("event", WireKind.session.name)
        header.field("v", WireKind.version)
        header.field("app", app)
        header.field("run", run)
        header.field("pid", Int(ProcessInfo.processInfo.processIdentifier))
        header.field("hook", PackageVersion.current)
        if acknowledged != nil { header.field("acks", 1) }
        backlog.append(header.close())
        // Counts declared in the options hold from the start, before any coordinator is added.
        for expected in options.expectedCounts { process(expected.rawEvent(at: startNanos)) }
        for reusable in options.reusableTypes { process(reusable.rawEvent(at: startNanos)) }

        let tickMilliseconds = Int32(max(1, options.tickInterval * 1_000))
        while true {
            // Lines waiting for a live connection: back as soon as it can take more, not a tick later (a socket buffer
            // a tick would cap a burst at tens of thousands of lines a second).
            let streaming = (hasPending || backlogStart < backlog.count) && acknowledged?.holdsLiveConnection == true
            // A flush waiting for the receiver's confirmation: back as soon as it comes.
            let confirming =
                !streaming && confirmedThrough < flushTarget && acknowledged?.acknowledges == true && acknowledged?.holdsLiveConnection == true
            if streaming { acknowledged?.waitForRoom(milliseconds: tickMilliseconds) }
            if confirming {
                acknowledged?.awaitAcknowledgement(milliseconds: tickMilliseconds)
                takeRefusedLines()
            }
            // One look, at most one sleep: the writer works a tick at a time whether or not anyone woke it. With
            // nothing to do it sleeps until a caller queues an event, a heartbeat is due or the sink may retry.
            let asleepUntil = streaming || confirming ? nil : fallAsleep()
            let pause =
                asleepUntil.map { $0 &- min($0, MonotonicClock.now()) &+ MonotonicClock.resolution }
                ?? UInt64((lastDrained >= Self.burstEvents ? 0.001 : options.tickInterval) * 1e9)
            var slept = false
            let (request, last) = signals.wait { signals -> ConditionBox<Signals>.Look<(Int, (events: [RawEvent], refused: Int)?)> in
                if slept { signals.wakeUps += 1 }
                if !slept, !streaming, !confirming, !signals.woken, signals.flushRequested == signals.flushCompleted,
                    signals.finalBatch == nil
                {
                    // In a burst (the last drain took many events) the queue is taken again within a millisecond, not
                    // a tick: the callers pay nothing to wake the writer, and a burst is taken while it still fits.
                    slept = true
                    return .waiting(nanoseconds: pause)
                }
                signals.woken = false
                return .found((signals.flushRequested, signals.finalBatch))
            }

            if let last {
                refused += last.refused
                count(events: last.refused)
                pending.append(contentsOf: last.events)
                let started = MonotonicClock.now()
                finishPending(until: started + endBudget.delivering)
                deliverRest(startedAt: started)
                complete(request, finishing: true)
                return
            }
            guard let tracer else {
                // The tracer was freed without `end()`: deliver what there is and stop.
                let started = MonotonicClock.now()
                finishPending(until: started + endBudget.delivering)
                deliverRest(startedAt: started)
                complete(request, finishing: true)
                return
            }
            sweepSlices(tracer)
            if !hasPending {
                pendingStart = 0
                pending.removeAll(keepingCapacity: true)
                let newlyRefused = tracer.withLock { state in drain(&state, into: &pending) }
                lastDrained = pending.count
                refused += newlyRefused
                if newlyRefused > 0 { count(events: newlyRefused) }
            }
            processPending(whileTheSinkKeepsUp: true)
            reportLosses()
            deliver()
            // A flush waits for what was queued before it, and that is still here while the sink holds some back.
            if !hasPending { complete(request, finishing: false) }
        }
    }

    /// Encodes the events taken from the callers' queue. While a live connection is slower than the callers, the rest
    /// stays here and the queue is not taken again: the callers' queue fills and counts what it refuses, rather than
    /// the backlog dropping lines already numbered, so a burst the queue can hold is delivered whole. A sink that
    /// delivers nothing (no inspector) gets everything encoded, and the backlog's bound counts the drops as before.
    func processPending(whileTheSinkKeepsUp: Bool) {
        while hasPending {
            if whileTheSinkKeepsUp, room <= 0 {
                deliver()
                guard room > 0 || acknowledged?.holdsLiveConnection != true else { return }
            }
            process(pending[pendingStart])
            pendingStart += 1
        }
    }

    /// At the session's end: encodes what is left, as fast as a live connection takes it until `deadline` (a burst just
    /// before `end()` is delivered, not dropped), then the rest regardless, over the backlog's bound and counted.
    func finishPending(until deadline: UInt64) {
        while hasPending, MonotonicClock.now() < deadline {
            processPending(whileTheSinkKeepsUp: true)
            deliver()
            guard hasPending, let acknowledged, acknowledged.holdsLiveConnection else { break }
            acknowledged.waitForRoom(milliseconds: 20)
        }
        processPending(whileTheSinkKeepsUp: false)
    }

    /// Whether events taken from the callers' queue wait to be encoded.
    var hasPending: Bool { pendingStart < pending.count }

    /// Finds freed objects where no probe reports them, a slice at a time (`SweepCursor`), so that no hook call waits
    /// for more than one slice; a pass over many objects spreads over several ticks. Deaths are stamped when found.
    func sweepSlices(_ tracer: LockedBox<TracerState>) {
        #if !canImport(ObjectiveC)
        // Once a tick, however often the loop turns while it streams.
        let now = MonotonicClock.now()
        guard now &- lastSweep >= UInt64(options.tickInterval * 1e9) else { return }
        lastSweep = now
        var checked = 0
        while checked < Self.sweepBudget {
            let finished = tracer.withLock { state -> Bool in
                guard state.session?.writer === self else { return true }
                return state.session!.sweep(&sweepCursor)
            }
            sweepCursor.carried.removeAll()
            if finished {
                decidesAt = sweepCursor.latestDecision
                sweepCursor = SweepCursor(grace: options.graceNanoseconds)
                return
            }
            sweepCursor.check()
            checked += SweepCursor.slice
        }
        #endif
    }

    /// Under the tracer's lock: add a heartbeat when the app has been quiet, take the queue.
    func drain(_ state: inout TracerState, into drained: inout [RawEvent]) -> Int {
        guard state.session?.writer === self else { return 0 }
        state.session!.writerAsleep = false
        drainedOnlyHeartbeat = false
        if state.session!.queue.isEmpty,
            MonotonicClock.now() &- lastEventNanos >= UInt64(options.heartbeatInterval * 1e9)
        {
            state.session!.heartbeat()
            drainedOnlyHeartbeat = true
        }
        return state.session!.queue.drain(into: &drained)
    }

    func complete(_ request: Int, finishing: Bool) {
        if request > lastCompletedRequest {
            lastCompletedRequest = request
            flushTarget = seq
        }
        let confirmable = noteConfirmation()
        let (tally, target, confirmed) = (tally, flushTarget, confirmedThrough)
        signals.withLockedValue { signals in
            signals.flushCompleted = request
            signals.published = tally
            signals.flushTarget = target
            signals.confirmedThrough = confirmed
            signals.confirmable = confirmable
            if finishing { signals.finished = true }
        }
    }

}
