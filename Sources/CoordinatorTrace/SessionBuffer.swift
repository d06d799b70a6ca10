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
    /// Ids come from a counter, never from addresses, which the allocator reuses. An address seen before whose box
    /// has gone empty is either that same object in the middle of its deinit (it calls the hook from `deinit`, so
    /// weak references to it already read nil) or a new object at a reused address: only the new one can still be
    /// referenced weakly.
    func identify(_ object: AnyObject) -> (id: Int, newBox: WeakBox?) {
        let key = ObjectIdentifier(object)
        if let box = registry[key] {
            if box.object === object { return (box.id, nil) }
            weak let probe = object
            if probe == nil { return (box.id, nil) }
        }
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
