/// A session's state shared between the calling threads and the writer; touched only under the tracer's lock.
final class SessionBuffer: @unchecked Sendable {
    let app: String
    let run: String
    let startNanos: UInt64
    let capacity: Int
    var pending: [RawEvent] = []
    var spare: [RawEvent] = []
    /// Events refused because `pending` was full; they never got a seq.
    var refused = 0
    var ending = false
    private var registry: [ObjectIdentifier: WeakBox] = [:]
    private var lastID = 0

    init(app: String, run: String, capacity: Int) {
        self.app = app
        self.run = run
        self.startNanos = MonotonicClock.now()
        self.capacity = capacity
        pending.reserveCapacity(capacity)
        spare.reserveCapacity(capacity)
    }

    /// Queues an event, or counts it as refused when the buffer is full; the session's `end` is never refused.
    func append(_ event: RawEvent) {
        if pending.count < capacity || event.kind == .end {
            pending.append(event)
        } else {
            refused += 1
        }
    }

    /// The object's id in this session, and a box to watch when the object is new to it.
    ///
    /// Ids come from a counter, never from addresses, which the allocator reuses. A registered address cannot have
    /// been reused: on Apple platforms a probe drops the entry as its object deallocates; elsewhere the box's unowned
    /// anchor keeps the memory until the writer has seen the death and dropped the entry. So a hit is this object,
    /// also when it calls the hook from its own `deinit`.
    func identify(_ object: AnyObject) -> (id: Int, newBox: WeakBox?) {
        let key = ObjectIdentifier(object)
        if let box = registry[key] { return (box.id, nil) }
        lastID += 1
        let box = WeakBox(object, id: lastID)
        registry[key] = box
        return (lastID, box)
    }

    /// Forgets a deallocated object so its address can take a new id.
    func forget(_ box: WeakBox) {
        if registry[box.key] === box { registry[box.key] = nil }
    }
}
