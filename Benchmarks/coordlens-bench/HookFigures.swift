import CoordinatorTrace

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The fields the hook queues per event (its `RawEvent`), so the floor appends a value of the same size and shape.
struct FloorEvent {
    var kind: UInt8
    var id: Int
    var other: Int
    var nanos: UInt64
    var type: Any.Type?
    var label: String?
    var file: StaticString?
    var path: StaticString?
    var line: UInt
    var function: StaticString?
}

/// The least a hook call under a lock can cost: an uncontended pthread mutex around an append of the hook's value.
final class HookFloor {
    private var lock = pthread_mutex_t()
    private var queue: [FloorEvent] = []

    init(capacity: Int) {
        pthread_mutex_init(&lock, nil)
        queue.reserveCapacity(capacity)
    }

    @inline(never)
    func append(
        _ id: Int, file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function,
        path: StaticString = #filePath
    ) {
        pthread_mutex_lock(&lock)
        queue.append(
            FloorEvent(
                kind: 0, id: id, other: 1, nanos: 0, type: BenchCoordinator.self, label: nil,
                file: file, path: path, line: line, function: function))
        pthread_mutex_unlock(&lock)
    }

    func drain() { queue.removeAll(keepingCapacity: true) }
}

/// The hook against its own floor, batch by batch in turn so that both see the same machine, and the cost of a call
/// with no session (what a release build pays when only `start` is behind `#if DEBUG`).
func hookRatios() {
    let tracer = Tracer()
    tracer.start(app: "Bench", sink: DiscardingSink(), options: TraceOptions(bufferCapacity: 1 << 16))
    let parent = BenchCoordinator()
    let children = (0..<1_000).map { _ in BenchCoordinator() }
    tracer.added(parent, to: nil)
    for child in children { tracer.added(child, to: parent) }
    tracer.flush()
    let floor = HookFloor(capacity: 1 << 16)
    // An app calls the hook with a reference it already holds; iterating `children` would retain and release each one,
    // and on an object with weak references (every tracked coordinator) that alone costs about as much as the call.
    let held = children.map { Unmanaged.passUnretained($0) }

    var hook: [Double] = []
    var floorCosts: [Double] = []
    var ratios: [Double] = []
    for _ in 0..<200 {
        var start = nanos()
        for child in held { child._withUnsafeGuaranteedRef { tracer.added($0, to: parent) } }
        let hookCost = Double(nanos() - start) / Double(children.count)
        tracer.flush()
        start = nanos()
        for index in children.indices { floor.append(index) }
        let floorCost = Double(nanos() - start) / Double(children.count)
        floor.drain()
        hook.append(hookCost)
        floorCosts.append(floorCost)
        ratios.append(hookCost / floorCost)
    }
    tracer.end()
    print(
        String(
            format:
                "hook vs its floor (an uncontended lock and an append of the same value), added with references the caller holds, in turn: hook %.0f ns, floor %.0f ns, ratio %.2f× (median of %d pairs of 1000 calls)  %@",
            median(hook), median(floorCosts), median(ratios), ratios.count, targetNote(median(hook), 100, "≤ 100 ns")))

    // No session: a tracer never started, and the shared one behind `CoordinatorTrace`, which this process never starts.
    let idle = Tracer()
    var disabled: [Double] = []
    var shared: [Double] = []
    for _ in 0..<200 {
        var start = nanos()
        for child in held { child._withUnsafeGuaranteedRef { idle.added($0, to: parent) } }
        disabled.append(Double(nanos() - start) / Double(children.count))
        start = nanos()
        for child in held { child._withUnsafeGuaranteedRef { CoordinatorTrace.dismissed($0) } }
        shared.append(Double(nanos() - start) / Double(children.count))
    }
    print(
        String(
            format:
                "hook with no session: Tracer.added %.1f ns, CoordinatorTrace.dismissed %.1f ns per call (median of 200 batches of 1000; no lock, no clock read)  [target: a few ns]",
            median(disabled), median(shared)))
}
