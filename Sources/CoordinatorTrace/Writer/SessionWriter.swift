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
    private let sink: any TraceSink
    /// The sink as one whose receiver confirms lines (`TCPSink`), looked up once.
    private let acknowledged: (any AcknowledgedSink)?
    /// Weak: a tracer that is freed without `end()` lets its writer deliver what it has and stop.
    private weak var tracer: LockedBox<TracerState>?

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
    }

    private let signals = ConditionBox(Signals())

    // Owned by the writer thread alone.
    /// Events taken from the callers' queue, processed up to `pendingStart`.
    private var pending: [RawEvent] = []
    private var pendingStart = 0
    private var seq = 0
    private var lastEventNanos: UInt64 = 0
    private var typeNames: [ObjectIdentifier: [UInt8]] = [:]
    private var callSite = QuotedStaticStrings()
    private var pairing = CallSitePairing()
    /// `#filePath`s, with `TraceOptions.sourceRoot` taken off.
    private var paths: QuotedStaticStrings
    private var backlog: [[UInt8]] = []
    private var backlogStart = 0
    private var lostInBacklog = 0
    /// Events the callers' queue refused, not yet reported.
    private var refused = 0
    /// The latest flush request completed, its target, and how far the receiver confirmed (see `Signals`).
    private var lastCompletedRequest = 0
    private var flushTarget = 0
    private var confirmedThrough = 0
    /// Whether the app's console was told that the inspector did not keep some lines.
    private var refusalTold = false
    /// The periodic sweep's place: it checks at most `sweepBudget` objects a tick, a slice per hold of the lock, and
    /// goes on from here at the next tick.
    private var sweepCursor = SweepCursor()
    private var lastSweep: UInt64 = 0
    /// Whether the `end` line went into the backlog, with the seq it took.
    private var endSeq: Int?
    /// The session's own account, kept by the writer thread alone (so counting a line takes no lock) and published
    /// to `counts` once a tick and at the end.
    private var tally = TraceCounts(events: 0, dropped: 0)
    private static let sweepBudget = 8_192
    /// A drain of at least this many events means a burst: the writer looks again within a millisecond.
    private static let burstEvents = 1_024
    private var lastDrained = 0

    init(app: String, run: String, sink: any TraceSink, options: TraceOptions, tracer: LockedBox<TracerState>) {
        self.app = app
        self.run = run
        self.sink = sink
        acknowledged = sink as? any AcknowledgedSink
        self.options = options
        self.tracer = tracer
        paths = QuotedStaticStrings(trimming: options.sourceRoot)
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

    private func count(events: Int = 0, dropped: Int = 0) {
        tally.events += events
        tally.dropped += dropped
    }

    /// Waits until the writer has delivered its last batch and closed the sink; false on timeout.
    @discardableResult
    func waitUntilFinished(timeout: Double) -> Bool {
        waitFor(until: MonotonicClock.now() &+ UInt64(max(0, timeout) * 1e9)) { $0.finished }
    }

    private func loop() {
        lastEventNanos = startNanos
        var header = LineEncoder()
        header.open()
        header.field("event", WireKind.session.name)
        header.field("v", WireKind.version)
        header.field("app", app)
        header.field("run", run)
        header.field("pid", Int(ProcessInfo.processInfo.processIdentifier))
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
            // One look, at most one sleep: the writer works a tick at a time whether or not anyone woke it.
            let pause = UInt64((lastDrained >= Self.burstEvents ? 0.001 : options.tickInterval) * 1e9)
            var slept = false
            let (request, last) = signals.wait { signals -> ConditionBox<Signals>.Look<(Int, (events: [RawEvent], refused: Int)?)> in
                if !slept, !streaming, !confirming, signals.flushRequested == signals.flushCompleted, signals.finalBatch == nil {
                    // In a burst (the last drain took many events) the queue is taken again within a millisecond, not
                    // a tick: the callers pay nothing to wake the writer, and a burst is taken while it still fits.
                    slept = true
                    return .waiting(nanoseconds: pause)
                }
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
    private func processPending(whileTheSinkKeepsUp: Bool) {
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
    private func finishPending(until deadline: UInt64) {
        while hasPending, MonotonicClock.now() < deadline {
            processPending(whileTheSinkKeepsUp: true)
            deliver()
            guard hasPending, let acknowledged, acknowledged.holdsLiveConnection else { break }
            acknowledged.waitForRoom(milliseconds: 20)
        }
        processPending(whileTheSinkKeepsUp: false)
    }

    /// Whether events taken from the callers' queue wait to be encoded.
    private var hasPending: Bool { pendingStart < pending.count }

    /// Finds freed objects where no probe reports them, a slice at a time (`SweepCursor`), so that no hook call waits
    /// for more than one slice; a pass over many objects spreads over several ticks. Deaths are stamped when found.
    private func sweepSlices(_ tracer: LockedBox<TracerState>) {
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
            if finished {
                sweepCursor = SweepCursor()
                return
            }
            sweepCursor.check()
            checked += SweepCursor.slice
        }
        #endif
    }

    /// Under the tracer's lock: add a heartbeat when the app has been quiet, take the queue.
    private func drain(_ state: inout TracerState, into drained: inout [RawEvent]) -> Int {
        guard state.session?.writer === self else { return 0 }
        if state.session!.queue.isEmpty,
            MonotonicClock.now() &- lastEventNanos >= UInt64(options.heartbeatInterval * 1e9)
        {
            state.session!.heartbeat()
        }
        return state.session!.queue.drain(into: &drained)
    }

    private func complete(_ request: Int, finishing: Bool) {
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

    /// How far the receiver confirmed the session's lines: every seq below the oldest line still held here (in the
    /// backlog, or delivered and not confirmed) is confirmed or counted dropped. Whether the receiver confirms at all.
    private func noteConfirmation() -> Bool {
        guard let acknowledged else {
            confirmedThrough = .max
            return true
        }
        var oldest = acknowledged.oldestUnacknowledgedSeq
        // The session line, unsent until a connection opens, has no seq: the line after it does.
        for line in backlog[backlogStart...].prefix(2) {
            if let waiting = TCPSink.seq(of: line) {
                oldest = min(oldest ?? waiting, waiting)
                break
            }
        }
        confirmedThrough = oldest.map { $0 - 1 } ?? seq
        return acknowledged.acknowledges != false
    }

    /// Lines the receiver took and did not keep (too long, unreadable, a recording its disk refused): counted dropped,
    /// and said once on the app's console with the receiver's reason.
    private func takeRefusedLines() {
        guard let acknowledged else { return }
        let (lines, why) = acknowledged.takeRefusedLines()
        guard lines.events > 0 else { return }
        count(dropped: lines.events)
        guard !refusalTold else { return }
        refusalTold = true
        let receiver = (sink as? TCPSink).map { " at \($0.host):\($0.port)" } ?? ""
        let message =
            "CoordinatorTrace: coordlens listen\(receiver) did not keep \(lines.events) event\(lines.events == 1 ? "" : "s") it was sent (\(why ?? "no reason given")); "
            + "counted dropped (Tracer.counts.dropped), and later ones too without a word\n"
        FileHandle.standardError.write(Data(message.utf8))
    }

    /// `endTimeout` split: the time to deliver what is left, then the reserve for the last lines of a session that gives
    /// up (its `dropped` line and the `end` again).
    private var endBudget: (delivering: UInt64, total: UInt64) {
        let total = UInt64(options.endTimeout * 1e9)
        return (total - min(total / 2, 1_000_000_000), total)
    }

    /// Delivers what is left within `endTimeout` from `start`, giving up on a sink that takes nothing three times
    /// running with no live connection and no receiver reached this session, and waits for the receiver's
    /// acknowledgements; then closes the sink. Giving up, it keeps the last half of the time (at most 1 s: a loaded machine behind a slow link needs it) to send one
    /// `dropped` line counting every line surely lost, and the `end` again.
    private func deliverRest(startedAt start: UInt64) {
        acknowledged?.prepareForLastDelivery()
        deliver()
        let total = endBudget.total
        let deadline = start + endBudget.delivering
        deliverBacklog(until: deadline)
        awaitAcknowledgements(until: deadline)
        var lost = LostLines()
        lost.add(backlog[backlogStart...])
        if let acknowledged { lost.add(acknowledged.abandonLostLines()) }
        if lost.events + lost.reported > 0 {
            backlog.removeAll()
            backlogStart = 0
            reportLastLosses(lost)
            acknowledged?.prepareForLastDelivery()
            deliverBacklog(until: start + total)
            awaitAcknowledgements(until: start + total)
            // Nothing took even the last lines (no inspector at all): the end they carried is lost too, and counted;
            // the `dropped` line's count is in the tally already.
            var unsent = LostLines()
            unsent.add(backlog[backlogStart...])
            count(dropped: unsent.events)
            if unsent.events > 0, acknowledged?.holdsLiveConnection == true {
                let message =
                    "CoordinatorTrace: the session's end did not go out within \(options.endTimeout) s (TraceOptions.endTimeout): "
                    + "the inspector is slower than this app's events; \(tally.dropped) events were counted dropped\n"
                FileHandle.standardError.write(Data(message.utf8))
            }
        }
        takeRefusedLines()
        if let acknowledged { countUnconfirmed(acknowledged.unconfirmedLines(), confirming: acknowledged.acknowledges != false) }
        sink.close()
    }

    /// Waits for the receiver to confirm what it took, when it took everything, until `deadline`.
    private func awaitAcknowledgements(until deadline: UInt64) {
        guard let acknowledged, backlogStart == backlog.count else { return }
        let left = Double(deadline - min(deadline, MonotonicClock.now())) / 1e9
        _ = acknowledged.awaitAcknowledgements(timeout: left)
    }

    /// Lines the inspector never confirmed are neither recorded for sure nor lost for sure: counted apart, and said
    /// once on the app's console, since a recording that lacks them lacks its end too. `confirming`: false when the
    /// receiver confirms nothing at all (one older than acknowledgements, or another program).
    private func countUnconfirmed(_ unconfirmed: LostLines, confirming: Bool) {
        // A `dropped` line among them reports events counted dropped already: only event lines count here.
        guard unconfirmed.events > 0 else { return }
        tally.unconfirmed = unconfirmed.events
        tally.unconfirmedSeqs = unconfirmed.seqs
        let receiver = (sink as? TCPSink).map { " at \($0.host):\($0.port)" } ?? ""
        let message =
            confirming
            ? "CoordinatorTrace: coordlens listen\(receiver) had not confirmed the last \(tally.unconfirmed) events when end() "
                + "stopped waiting after \(options.endTimeout) s (TraceOptions.endTimeout): a recording may lack them and its end "
                + "(Tracer.counts.unconfirmed)\n"
            : "CoordinatorTrace: the receiver\(receiver) confirms nothing it is sent (not coordlens listen, or one older than "
                + "acknowledgements): the session's \(tally.unconfirmed) events sent there are counted unconfirmed (Tracer.counts.unconfirmed)\n"
        FileHandle.standardError.write(Data(message.utf8))
    }

    /// How long before a delivery deadline no new connection is tried: a connection that opens waits up to half a
    /// second for the inspector's first acknowledgement (`TCPSink.firstAcknowledgementMilliseconds`).
    static let lastAttemptReserve: UInt64 = 600_000_000

    private func deliverBacklog(until deadline: UInt64) {
        var idle = 0
        while backlogStart < backlog.count, MonotonicClock.now() < deadline, idle < 3 {
            let before = backlogStart
            deliver()
            if backlogStart == before {
                // A connection whose buffer is full is waited for, only until it can take more; the sink drops it once
                // it stalls.
                if let acknowledged, acknowledged.holdsLiveConnection {
                    acknowledged.waitForRoom(milliseconds: 20)
                } else if let acknowledged, acknowledged.hasReachedReceiver,
                    MonotonicClock.now() &+ Self.lastAttemptReserve < deadline
                {
                    // An inspector reached before may be restarting, or its address may not answer yet after the
                    // network came back (a neighbour that failed to resolve reads as "no route" for a moment): tried
                    // again until the deadline, since giving up counts as lost lines it would take a moment later.
                    // Not within the reserve of it: an attempt that connects may wait that long for its first
                    // acknowledgement, and `end()` waits for this thread only a second past its timeout.
                    acknowledged.prepareForLastDelivery()
                    Thread.sleep(forTimeInterval: 0.05)
                } else {
                    idle += 1
                    Thread.sleep(forTimeInterval: 0.02)
                }
            } else {
                idle = 0
            }
        }
    }

    /// The session's last lines were not delivered: one `dropped` line says how many events they carried (their
    /// own, and the counts of `dropped` lines among them, which the tally has already), then the `end` goes out again.
    /// The lost lines are the last ones, the `end` among them; the `dropped` line takes the `end`'s seq and the new
    /// `end` follows it.
    private func reportLastLosses(_ lost: LostLines) {
        var events = lost.events
        if let endSeq, endSeq == seq {
            seq -= 1
            events -= 1
        }
        if events + lost.reported > 0 {
            count(dropped: events)
            emit(.dropped, at: max(lastEventNanos, startNanos), always: true) { $0.field("count", events + lost.reported) }
        }
        if endSeq != nil {
            emit(.end, at: max(lastEventNanos, startNanos), always: true, counted: false) { _ in }
        }
    }

    private func process(_ event: RawEvent) {
        lastEventNanos = max(lastEventNanos, event.nanos)
        switch event.kind {
        case .add:
            emit(.add, at: event.nanos, from: event) { line in
                line.field("id", event.id)
                line.field("type", quoted: self.name(of: event.type))
                if event.other != 0 { line.field("parent", event.other) }
            }
        case .watch:
            emit(.watch, at: event.nanos, from: event) { line in
                line.field("id", event.id)
                line.field("type", quoted: self.name(of: event.type))
                line.field("parent", event.other)
            }
        case .remove:
            emit(.remove, at: event.nanos, from: event) { line in
                line.field("id", event.id)
                if event.other != 0 { line.field("parent", event.other) }
            }
        case .bind:
            emit(.bind, at: event.nanos, from: event) { line in
                line.field("id", event.id)
                line.field("screen", quoted: self.name(of: event.type))
            }
        case .dismiss:
            emit(.dismiss, at: event.nanos, from: event) { $0.field("id", event.id) }
        case .screenLeft:
            emit(.dismiss, at: event.nanos, from: event) { line in
                line.field("id", event.id)
                line.field("via", "screen-left")
            }
        case .screenFreed:
            emit(.dismiss, at: event.nanos, from: event) { line in
                line.field("id", event.id)
                line.field("via", "screen-freed")
            }
        case .expect:
            emit(.expect, at: event.nanos, from: event) { line in
                line.field("type", quoted: self.name(of: event.type))
                line.field("max", event.id)
                if event.other == 1 { line.field("per", "parent") }
                if event.other == RawEvent.reuseScope { line.field("per", "reuse") }
            }
        case .deinitialized:
            emit(.deinitialized, at: event.nanos, from: event) { $0.field("id", event.id) }
        case .mark:
            emit(.mark, at: event.nanos, from: event) { $0.field("label", event.label ?? "") }
        case .held:
            guard let path = event.retainers?.path else { return }
            emit(.held, at: event.nanos) { line in
                line.field("id", event.id)
                line.field("via", path.outcome.rawValue)
                line.field("count", path.visited)
                line.field("label", HeldStepsText.encode(path.steps))
                if let reason = path.reason { line.field("why", reason) }
            }
        case .heartbeat:
            emit(.heartbeat, at: event.nanos, from: event) { _ in }
        case .end:
            reportLosses(evenOverAFullBacklog: true)
            // The end always goes out, over a full backlog if need be, so the inspector knows the session is over.
            emit(.end, at: event.nanos, from: event, always: true) { _ in }
            endSeq = seq
        }
    }

    private var room: Int { options.backlogCapacity - (backlog.count - backlogStart) }

    /// Numbers and encodes one line of `kind` at `nanos`, with `event`'s call site if it has one; when the backlog is
    /// full the seq is still used, so the gap shows downstream.
    private func emit(
        _ kind: WireKind, at nanos: UInt64, from event: RawEvent? = nil, always: Bool = false, counted: Bool = true,
        _ fields: (inout LineEncoder) -> Void
    ) {
        seq += 1
        if counted, kind != .dropped { count(events: 1) }
        if room <= 0 { deliver() }
        guard room > 0 || always else {
            lostInBacklog += 1
            return
        }
        var line = LineEncoder()
        line.open()
        line.field("seq", seq)
        line.seconds("t", nanoseconds: nanos >= startNanos ? nanos - startNanos : 0)
        line.field("event", kind.name)
        fields(&line)
        if let event, let file = event.file {
            line.field("file", quoted: callSite(file))
            line.field("line", Int(event.line))
            if let function = event.function { line.field("function", quoted: callSite(function)) }
            if let path = event.path, pairing.pathAgrees(file: file, path: path) { line.field("path", quoted: paths(path)) }
        }
        backlog.append(line.close())
    }

    /// Reports events lost to a full queue or a full backlog, at most one line a tick each; the report of the queue's
    /// losses, and at the end every report, goes out even over a full backlog.
    private func reportLosses(evenOverAFullBacklog: Bool = false) {
        if refused > 0 {
            emitDropped(refused)
            refused = 0
        }
        if lostInBacklog > 0, room > 0 || evenOverAFullBacklog {
            emitDropped(lostInBacklog)
            lostInBacklog = 0
        }
    }

    private func emitDropped(_ dropped: Int) {
        count(dropped: dropped)
        emit(.dropped, at: max(lastEventNanos, startNanos), always: true) { $0.field("count", dropped) }
    }

    private func deliver() {
        guard backlogStart < backlog.count else { return }
        let taken = sink.deliver(backlog[backlogStart...])
        takeRefusedLines()
        backlogStart += max(0, min(taken, backlog.count - backlogStart))
        if backlogStart == backlog.count {
            backlog.removeAll(keepingCapacity: true)
            backlogStart = 0
        } else if backlogStart > 4_096, backlogStart * 2 > backlog.count {
            backlog.removeFirst(backlogStart)
            backlogStart = 0
        }
    }

    private func name(of type: Any.Type?) -> [UInt8] {
        guard let type else { return LineEncoder.quoted("?".utf8) }
        let key = ObjectIdentifier(type)
        if let cached = typeNames[key] { return cached }
        let quoted = LineEncoder.quoted(String(describing: type).utf8)
        typeNames[key] = quoted
        return quoted
    }
}
