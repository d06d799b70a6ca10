import CoordinatorWire

/// The writer's encoding: each event taken from the callers' queue numbered and written as one wire line into the
/// backlog, and losses (a full queue, a full backlog, lines never delivered) written as `dropped` lines.
extension SessionWriter {
    /// The session's last lines were not delivered: one `dropped` line says how many events they carried (their
    /// own, and the counts of `dropped` lines among them, which the tally has already), then the `end` goes out again.
    /// The lost lines are the last ones, the `end` among them; the `dropped` line takes the `end`'s seq and the new
    /// `end` follows it.
    func reportLastLosses(_ lost: LostLines) {
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

    func process(_ event: RawEvent) {
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
                if let closures = HeldStepsText.closures(path.steps) { line.field("closures", closures) }
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

    var room: Int { options.backlogCapacity - (backlog.count - backlogStart) }

    /// Numbers and encodes one line of `kind` at `nanos`, with `event`'s call site if it has one; when the backlog is
    /// full the seq is still used, so the gap shows downstream.
    func emit(
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
    func reportLosses(evenOverAFullBacklog: Bool = false) {
        if refused > 0 {
            emitDropped(refused)
            refused = 0
        }
        if lostInBacklog > 0, room > 0 || evenOverAFullBacklog {
            emitDropped(lostInBacklog)
            lostInBacklog = 0
        }
    }

    func emitDropped(_ dropped: Int) {
        count(dropped: dropped)
        emit(.dropped, at: max(lastEventNanos, startNanos), always: true) { $0.field("count", dropped) }
    }

    func name(of type: Any.Type?) -> [UInt8] {
        guard let type else { return LineEncoder.quoted("?".utf8) }
        let key = ObjectIdentifier(type)
        if let cached = typeNames[key] { return cached }
        let quoted = LineEncoder.quoted(String(describing: type).utf8)
        typeNames[key] = quoted
        return quoted
    }
}
