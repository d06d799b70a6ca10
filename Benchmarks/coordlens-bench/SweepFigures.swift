import CoordinatorLens
import CoordinatorTrace
import Foundation

/// Wall time, not CPU time: a call that waits for the tracer's lock spends no CPU while it waits.
func wallNanos() -> UInt64 {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
}

/// The longest single hook call while `live` coordinators are alive: the writer sweeps them every tick and another
/// thread sets a mark every 100 ms (each mark sweeps all of them first), while this thread times every call on its
/// own, freeing one coordinator and adding a new one every 100 calls so that sweeps find deaths.
func longestCall(live: Int = 100_000, seconds: Double = 3) {
    let tracer = Tracer()
    tracer.start(app: "Bench", sink: DiscardingSink(), options: TraceOptions(bufferCapacity: 1 << 20))
    let root = BenchCoordinator()
    tracer.added(root, to: nil)
    var alive = (0..<live).map { _ in BenchCoordinator() }
    for child in alive { tracer.added(child, to: root) }
    tracer.flush(timeout: 60)

    let marking = MarkingThread()
    let marker = Thread {
        while !marking.isSet {
            let start = wallNanos()
            tracer.mark("tick")
            marking.record(Double(wallNanos() - start) / 1e3)
            Thread.sleep(forTimeInterval: 0.1)
        }
        marking.done()
    }
    marker.start()

    var costs: [Double] = []
    costs.reserveCapacity(4_000_000)
    let held = alive.prefix(1_000).map { Unmanaged.passUnretained($0) }
    let deadline = wallNanos() + UInt64(seconds * 1e9)
    var round = 0
    while wallNanos() < deadline {
        for child in held {
            let start = wallNanos()
            child._withUnsafeGuaranteedRef { tracer.dismissed($0) }
            costs.append(Double(wallNanos() - start) / 1e3)
        }
        // Free one of the coordinators no call above holds, and add a new one in its place.
        round += 1
        let index = 1_000 + round % (live - 1_000)
        let fresh = BenchCoordinator()
        tracer.added(fresh, to: root)
        alive[index] = fresh
    }
    marking.set()
    marking.waitDone()
    tracer.end()
    let sorted = costs.sorted()
    func at(_ p: Double) -> Double { sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))] }
    print(
        String(
            format:
                "longest single hook call with %d live coordinators (Tracer.dismissed, wall time per call, the writer sweeping and a mark every 100 ms on another thread): max %.1f µs, p99.9 %.1f µs, p99 %.1f µs, median %.2f µs over %d calls; one mark there (a sweep over all of them, in slices) %.1f ms median  [target p99.9 < 50 µs; was 27 ms max]",
            live, sorted.last ?? 0, at(0.999), at(0.99), at(0.5), sorted.count, median(marking.costs) / 1e3))
}

/// What the marking thread tells the measuring one: its marks' costs, and when it has stopped.
final class MarkingThread: @unchecked Sendable {
    private let condition = NSCondition()
    private var flag = false
    private var finished = false
    private var measured: [Double] = []

    var costs: [Double] {
        condition.lock()
        defer { condition.unlock() }
        return measured
    }
    func record(_ cost: Double) {
        condition.lock()
        measured.append(cost)
        condition.unlock()
    }

    var isSet: Bool {
        condition.lock()
        defer { condition.unlock() }
        return flag
    }
    func set() {
        condition.lock()
        flag = true
        condition.unlock()
    }
    func done() {
        condition.lock()
        finished = true
        condition.broadcast()
        condition.unlock()
    }
    func waitDone() {
        condition.lock()
        while !finished { condition.wait() }
        condition.unlock()
    }
}

/// `growth` over a run that adds one leaking coordinator and marks after each of `marks` iterations.
func growthTime(marks: Int = 30_000) {
    var events = ["\"event\":\"add\",\"id\":1,\"type\":\"AppCoordinator\""]
    for id in 2...marks + 1 {
        events.append("\"event\":\"add\",\"id\":\(id),\"type\":\"LeakyCoordinator\",\"parent\":1")
        events.append("\"event\":\"mark\",\"label\":\"loop\"")
    }
    let log = Recording(bytes: recordingText(run: "growth", events)).sessions[0]
    let report = timed { try! GrowthReport(log, label: "loop") }
    print(
        String(
            format: "growth over %d marks (one more live coordinator at each): %.3f s, %d growing type(s)  [target well under 1 s; was 46.8 s]",
            marks, report.seconds, report.value.growing.count))
}
