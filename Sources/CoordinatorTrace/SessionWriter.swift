import Foundation

/// The session's background thread: it takes what callers queued, numbers and encodes it, notices deallocated
/// coordinators and screens, and hands lines to the sink. Everything slow in the hook happens here.
final class SessionWriter: @unchecked Sendable {
    private let buffer: SessionBuffer
    private let lock: Lock
    private let sink: any TraceSink
    private let options: TraceOptions
    private let wake = NSCondition()
    private var flushRequested = 0
    private var flushCompleted = 0
    private var finished = false

    // Owned by the writer thread alone.
    private var seq = 0
    private var watched: [WeakBox] = []
    private var bindings: [Int: WeakBox] = [:]
    private var typeNames: [ObjectIdentifier: [UInt8]] = [:]
    private var backlog: [[UInt8]] = []
    private var backlogStart = 0
    private var lostInBacklog = 0
    /// Events the callers' buffer refused, not yet reported.
    private var refused = 0

    init(buffer: SessionBuffer, lock: Lock, sink: any TraceSink, options: TraceOptions) {
        self.buffer = buffer
        self.lock = lock
        self.sink = sink
        self.options = options
    }

    func start() {
        let thread = Thread { [self] in run() }
        thread.name = "CoordinatorTrace.writer"
        thread.start()
    }

    /// Waits until everything queued before the call has been handed to the sink; false on timeout.
    @discardableResult
    func flush(timeout: Double) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        wake.lock()
        defer { wake.unlock() }
        flushRequested += 1
        let mine = flushRequested
        wake.signal()
        while flushCompleted < mine, !finished {
            if !wake.wait(until: deadline) { return false }
        }
        return true
    }

    private func run() {
        var header = LineEncoder()
        header.open()
        header.field("event", "session")
        header.field("v", 1)
        header.field("app", buffer.app)
        header.field("run", buffer.run)
        header.field("pid", Int(ProcessInfo.processInfo.processIdentifier))
        backlog.append(header.close())

        var drained: [RawEvent] = []
        drained.reserveCapacity(buffer.capacity)
        while true {
            wake.lock()
            if flushRequested == flushCompleted {
                _ = wake.wait(until: Date(timeIntervalSinceNow: options.tickInterval))
            }
            let request = flushRequested
            wake.unlock()

            lock.lock()
            let (newlyRefused, ending) = buffer.drain(into: &drained)
            lock.unlock()
            refused += newlyRefused

            for event in drained { process(event) }
            drained.removeAll(keepingCapacity: true)
            reportRefused()
            if !ending { poll() }
            deliver()
            if lostInBacklog > 0, room > 0 {
                emitDropped(lostInBacklog)
                lostInBacklog = 0
            }
            if ending { finish() }

            wake.lock()
            flushCompleted = request
            if ending { finished = true }
            wake.broadcast()
            wake.unlock()
            if ending { return }
        }
    }

    private func finish() {
        let deadline = MonotonicClock.now() + UInt64(options.endTimeout * 1e9)
        while backlogStart < backlog.count, MonotonicClock.now() < deadline {
            deliver()
            if backlogStart < backlog.count { Thread.sleep(forTimeInterval: 0.02) }
        }
        sink.close()
    }

    private func process(_ event: RawEvent) {
        if let box = event.newBox { watched.append(box) }
        if let box = event.otherNewBox { watched.append(box) }
        switch event.kind {
        case .add:
            emit(event, "add") { line in
                line.field("id", event.id)
                line.field("type", quoted: self.name(of: event.type))
                if event.other != 0 { line.field("parent", event.other) }
            }
        case .remove:
            emit(event, "remove") { line in
                line.field("id", event.id)
                if event.other != 0 { line.field("parent", event.other) }
            }
        case .bind:
            // A new binding replaces the old one: the old screen's death is no longer this coordinator's dismiss.
            bindings[event.id] = event.subject
            emit(event, "bind") { line in
                line.field("id", event.id)
                line.field("screen", quoted: self.name(of: event.type))
            }
        case .dismiss:
            bindings[event.id] = nil
            emit(event, "dismiss") { $0.field("id", event.id) }
        case .deinitialized:
            bindings[event.id] = nil
            if let box = event.subject { forget([box]) }
            emit(event, "deinit") { $0.field("id", event.id) }
        case .screenGone:
            guard let box = event.subject, bindings[event.id] === box else { return }
            bindings[event.id] = nil
            emit(event, "dismiss") { $0.field("id", event.id) }
        case .mark:
            emit(event, "mark") { $0.field("label", event.label ?? "") }
        case .end:
            poll()
            reportRefused()
            if lostInBacklog > 0 {
                emitDropped(lostInBacklog)
                lostInBacklog = 0
            }
            // The end always goes out, over a full backlog if need be, so the inspector knows the session is over.
            emit(event, "end", always: true) { _ in }
        }
    }

    /// Finds coordinators and screens that went away since the last tick (where no probe reports them exactly).
    private func poll() {
        let now = MonotonicClock.now()
        for (id, box) in bindings where !box.probed && box.object == nil {
            bindings[id] = nil
            emit(RawEvent(kind: .dismiss, id: id, nanos: now), "dismiss") { $0.field("id", id) }
        }
        var gone: [WeakBox] = []
        watched.removeAll { box in
            if box.probed { return true }
            guard box.object == nil else { return false }
            gone.append(box)
            return true
        }
        for box in gone {
            bindings[box.id] = nil
            emit(RawEvent(kind: .deinitialized, id: box.id, nanos: now), "deinit") { $0.field("id", box.id) }
        }
        forget(gone)
    }

    private func forget(_ boxes: [WeakBox]) {
        guard !boxes.isEmpty else { return }
        lock.lock()
        for box in boxes { buffer.forget(box) }
        lock.unlock()
    }

    private var room: Int { options.backlogCapacity - (backlog.count - backlogStart) }

    /// Numbers and encodes one event; when the backlog is full the seq is still used, so the gap shows downstream.
    private func emit(_ event: RawEvent, _ kind: String, always: Bool = false, _ fields: (inout LineEncoder) -> Void) {
        seq += 1
        if room <= 0 { deliver() }
        guard room > 0 || always else {
            lostInBacklog += 1
            return
        }
        var line = LineEncoder()
        line.open()
        line.field("seq", seq)
        line.seconds("t", nanoseconds: event.nanos &- buffer.startNanos)
        line.field("event", kind)
        fields(&line)
        if let file = event.file {
            line.field("file", file)
            line.field("line", Int(event.line))
            if let function = event.function { line.field("function", function) }
        }
        backlog.append(line.close())
    }

    private func reportRefused() {
        guard refused > 0 else { return }
        emitDropped(refused)
        refused = 0
    }

    /// Reports lost events; it goes out even over a full backlog, at most one line a tick.
    private func emitDropped(_ count: Int) {
        emit(RawEvent(kind: .mark, id: 0, nanos: MonotonicClock.now()), "dropped", always: true) { $0.field("count", count) }
    }

    private func deliver() {
        guard backlogStart < backlog.count else { return }
        let taken = sink.deliver(backlog[backlogStart...])
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
