import Foundation

/// Records coordinator lifecycles for one session at a time; `CoordinatorTrace` forwards to a shared one.
///
/// Every call is safe from any thread and costs the caller a lock, an id lookup and an append to a bounded buffer.
/// Encoding, deallocation checks and I/O happen on the session's writer thread.
public final class Tracer: @unchecked Sendable {
    /// The tracer behind `CoordinatorTrace`.
    public static let shared = Tracer()

    private let lock = Lock()
    /// The running session, behind a pointer for the same reason as `SessionBuffer`'s state: reading a class's stored
    /// property pays a run-time exclusivity check on every call, and the lock already guards it.
    private let current: UnsafeMutablePointer<(buffer: SessionBuffer, writer: SessionWriter)?>

    /// A tracer of its own, independent of `shared`, with no session until `start`.
    public init() {
        current = .allocate(capacity: 1)
        current.initialize(to: nil)
    }

    deinit {
        current.deinitialize(count: 1)
        current.deallocate()
    }

    /// Starts a session streaming to `sink`, ending the current one first.
    public func start(app: String, sink: any TraceSink, options: TraceOptions = TraceOptions()) {
        end()
        let options = options.sanitized
        let buffer = SessionBuffer(app: app, run: UUID().uuidString.lowercased(), capacity: options.bufferCapacity)
        let writer = SessionWriter(buffer: buffer, lock: lock, sink: sink, options: options)
        lock.lock()
        current.pointee = (buffer, writer)
        lock.unlock()
        writer.start()
    }

    /// The current session's run id, or nil when no session runs.
    public var runID: String? {
        lock.lock()
        defer { lock.unlock() }
        return current.pointee?.buffer.run
    }

    /// `child` joins the tree under `parent` (nil: a root); adding it again moves it.
    public func added(
        _ child: AnyObject, to parent: AnyObject?,
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function
    ) {
        record(.add, child, other: parent, type: type(of: child), file: file, line: line, function: function)
    }

    /// `child` was detached from `parent` (nil: from whichever parent holds it).
    public func removed(
        _ child: AnyObject, from parent: AnyObject?,
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function
    ) {
        record(.remove, child, other: parent, file: file, line: line, function: function)
    }

    /// `coordinator` now drives `screen`; the screen's deallocation will count as its dismissal.
    public func bind(
        _ coordinator: AnyObject, to screen: AnyObject,
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function
    ) {
        record(.bind, coordinator, screen: screen, type: type(of: screen), file: file, line: line, function: function)
    }

    /// `coordinator`'s screen is gone or its flow finished.
    public func dismissed(
        _ coordinator: AnyObject,
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function
    ) {
        record(.dismiss, coordinator, file: file, line: line, function: function)
    }

    /// A named checkpoint, for snapshots and growth checks.
    public func mark(
        _ label: String,
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function
    ) {
        let nanos = MonotonicClock.now()
        lock.lock()
        current.pointee?.buffer.append(RawEvent(kind: .mark, id: 0, nanos: nanos, label: label, file: file, line: line, function: function))
        lock.unlock()
    }

    /// Ends the session: what is queued is written, the sink closed, and later calls ignored until the next start.
    public func end() {
        lock.lock()
        guard let (buffer, writer) = current.pointee else {
            lock.unlock()
            return
        }
        buffer.appendEnd(nanos: MonotonicClock.now())
        current.pointee = nil
        lock.unlock()
        writer.flush(timeout: 10)
    }

    /// Waits until everything recorded so far has reached the sink, including deallocations that already happened.
    @discardableResult
    public func flush(timeout: Double = 2) -> Bool {
        lock.lock()
        let writer = current.pointee?.writer
        lock.unlock()
        return writer?.flush(timeout: timeout) ?? true
    }

    private func record(
        _ kind: RawEvent.Kind, _ subject: AnyObject, other: AnyObject? = nil, screen: AnyObject? = nil,
        type: Any.Type? = nil, file: StaticString, line: UInt, function: StaticString
    ) {
        let nanos = MonotonicClock.now()
        lock.lock()
        defer { lock.unlock() }
        guard let buffer = current.pointee?.buffer else { return }
        let (id, newBox) = buffer.identify(subject)
        var event = RawEvent(kind: kind, id: id, nanos: nanos, type: type, newBox: newBox, file: file, line: line, function: function)
        if let newBox { watchDeallocation(of: subject, box: newBox, buffer: buffer) }
        if let other {
            let (otherID, otherBox) = buffer.identify(other)
            event.other = otherID
            if let otherBox {
                watchDeallocation(of: other, box: otherBox, buffer: buffer)
                event.otherNewBox = otherBox
            }
        }
        if let screen {
            let box = WeakBox(screen, id: id)
            event.subject = box
            watchScreen(screen, box: box, buffer: buffer)
        }
        buffer.append(event)
    }

    private func watchDeallocation(of object: AnyObject, box: WeakBox, buffer: SessionBuffer) {
        watch(object, box: box, buffer: buffer, reporting: .deinitialized)
    }

    private func watchScreen(_ screen: AnyObject, box: WeakBox, buffer: SessionBuffer) {
        watch(screen, box: box, buffer: buffer, reporting: .screenGone)
    }

    /// On Apple platforms, a probe queues `kind` the moment `object` deallocates; elsewhere the writer polls `box`.
    private func watch(_ object: AnyObject, box: WeakBox, buffer: SessionBuffer, reporting kind: RawEvent.Kind) {
        #if canImport(ObjectiveC)
        box.probed = true
        let id = box.id
        DeallocationProbe.attach(to: object, key: UnsafeRawPointer(Unmanaged.passUnretained(box).toOpaque())) {
            [weak self, weak buffer] in
            guard let self, let buffer else { return }
            let nanos = MonotonicClock.now()
            self.lock.lock()
            // The address may be reused from now on: a new object there must get a new id.
            if kind == .deinitialized { buffer.forget(box) }
            if !buffer.ending { buffer.append(RawEvent(kind: kind, id: id, nanos: nanos, subject: box)) }
            self.lock.unlock()
        }
        #endif
    }
}
