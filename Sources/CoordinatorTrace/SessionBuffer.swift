/// A session's state shared between the calling threads and the writer; touched only under the tracer's lock.
///
/// The mutable state lives behind a pointer rather than in stored `var`s: Swift checks every access to a class's
/// stored property for exclusivity at run time, about 80 instructions each, which was half the hook's cost per call.
/// The lock already makes the accesses exclusive.
final class SessionBuffer: @unchecked Sendable {
    let app: String
    let run: String
    let startNanos: UInt64
    let capacity: Int
    private let state: UnsafeMutablePointer<State>

    private struct State {
        var pending: [RawEvent] = []
        /// Events refused because `pending` was full; they never got a seq.
        var refused = 0
        var ending = false
        var registry: [ObjectIdentifier: WeakBox] = [:]
        var lastID = 0
    }

    init(app: String, run: String, capacity: Int) {
        self.app = app
        self.run = run
        self.startNanos = MonotonicClock.now()
        self.capacity = capacity
        state = .allocate(capacity: 1)
        state.initialize(to: State())
        state.pointee.pending.reserveCapacity(capacity)
    }

    deinit {
        state.deinitialize(count: 1)
        state.deallocate()
    }

    /// Whether `end()` was called: later events are dropped, not queued.
    var ending: Bool { state.pointee.ending }

    /// Queues an event, or counts it as refused when the buffer is full; the session's `end` is never refused.
    func append(_ event: RawEvent) {
        if state.pointee.pending.count < capacity || event.kind == .end {
            state.pointee.pending.append(event)
        } else {
            state.pointee.refused += 1
        }
    }

    /// Queues the session's `end`; from now on the session takes nothing more.
    func appendEnd(nanos: UInt64) {
        append(RawEvent(kind: .end, id: 0, nanos: nanos))
        state.pointee.ending = true
    }

    /// Hands the queued events to the writer in exchange for its empty array, so neither side allocates.
    func drain(into drained: inout [RawEvent]) -> (refused: Int, ending: Bool) {
        swap(&state.pointee.pending, &drained)
        defer { state.pointee.refused = 0 }
        return (state.pointee.refused, state.pointee.ending)
    }

    /// The object's id in this session, and a box to watch when the object is new to it.
    ///
    /// Ids come from a counter, never from addresses, which the allocator reuses. A registered address cannot have
    /// been reused: on Apple platforms a probe drops the entry as its object deallocates; elsewhere the box's unowned
    /// anchor keeps the memory until the writer has seen the death and dropped the entry. So a hit is this object,
    /// also when it calls the hook from its own `deinit`.
    func identify(_ object: AnyObject) -> (id: Int, newBox: WeakBox?) {
        let key = ObjectIdentifier(object)
        if let box = state.pointee.registry[key] { return (box.id, nil) }
        state.pointee.lastID += 1
        let id = state.pointee.lastID
        let box = WeakBox(object, id: id)
        state.pointee.registry[key] = box
        return (id, box)
    }

    /// Forgets a deallocated object so its address can take a new id.
    func forget(_ box: WeakBox) {
        if state.pointee.registry[box.key] === box { state.pointee.registry[box.key] = nil }
    }
}
