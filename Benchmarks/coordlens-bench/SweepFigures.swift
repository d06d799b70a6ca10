import CoordinatorLens
import CoordinatorTrace
import Foundation

/// Wall time, not CPU time: a call that waits for the tracer's lock spends no CPU while it waits.
func wallNanos() -> UInt64 {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
}

/// The longest hook calls while `live` coordinators are alive, quiet and under load, each beside a control: the writer
/// sweeps them every tick and another thread sets a mark every 100 ms (each mark sweeps all of them first), while this
/// thread times every call on its own, freeing one coordinator and adding a new one every 100 calls so that sweeps find
/// deaths. The control is a thread that only reads the clock, at the same time on the same machine: the longest gap
/// between two of its reads is what the scheduler alone costs, so a hook call that is no longer than the control's
/// worst waited for the CPU, not for the hook.
func hookStalls(seconds: Double = 2) {
    for loaded in [false, true] {
        let load = loaded ? SpinningLoad(threads: ProcessInfo.processInfo.activeProcessorCount * 3) : nil
        for live in [1_000, 100_000, 400_000] {
            let (hook, control, markCost) = longestCalls(live: live, seconds: seconds)
            print(
                String(
                    format:
                        "hook stalls, %d live, %@: Tracer.dismissed wall time per call p99.9 %.1f µs, p99.99 %.1f µs, max %.1f µs, %d of %d calls over 100 µs; the control thread's longest gap between two clock reads %.1f µs, %d gaps over 100 µs; a mark %.1f ms median  [target p99.9 < 50 µs; a max near the control's is the scheduler's]",
                    live, loaded ? "under load (\(load!.threads) spinning threads)" : "quiet", hook.at(0.999), hook.at(0.9999), hook.max,
                    hook.sorted.reversed().prefix { $0 > 100 }.count, hook.count, control.longest, control.over, markCost / 1e3))
        }
        load?.stop()
    }
}

/// Sorted samples in microseconds.
struct Samples {
    let sorted: [Double]
    init(_ values: [Double]) { sorted = values.sorted() }
    var count: Int { sorted.count }
    var max: Double { sorted.last ?? 0 }
    func at(_ p: Double) -> Double { sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))] }
}

/// Threads that spin until stopped: a loaded machine on demand.
final class SpinningLoad: @unchecked Sendable {
    let threads: Int
    private let flag = MarkingThread()

    init(threads: Int) {
        self.threads = threads
        for _ in 0..<threads {
            Thread { [flag] in
                var spins = 0
                while true {
                    spins &+= 1
                    if spins % 1_000_000 == 0, flag.isSet { return }
                }
            }.start()
        }
    }

    func stop() { flag.set() }
}

private func longestCalls(live: Int, seconds: Double) -> (hook: Samples, control: (longest: Double, over: Int), markCost: Double) {
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
    let controlling = MarkingThread()
    let control = Thread {
        // Every gap is looked at, none kept: the longest, and how many were over 100 µs.
        var (longest, over, last) = (UInt64(0), 0, wallNanos())
        var reads = 0
        while true {
            let now = wallNanos()
            let gap = now - last
            last = now
            if gap > longest { longest = gap }
            if gap > 100_000 { over += 1 }
            reads += 1
            if reads % 4_096 == 0, controlling.isSet { break }
        }
        controlling.record(Double(longest) / 1e3)
        controlling.record(Double(over))
        controlling.done()
    }
    control.start()

    var costs: [Double] = []
    costs.reserveCapacity(4_000_000)
    let held = alive.prefix(min(1_000, live / 2)).map { Unmanaged.passUnretained($0) }
    let spare = live - held.count
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
        let index = held.count + round % spare
        let fresh = BenchCoordinator()
        tracer.added(fresh, to: root)
        alive[index] = fresh
    }
    controlling.set()
    marking.set()
    marking.waitDone()
    controlling.waitDone()
    tracer.end()
    let controlFigures = controlling.costs
    return (Samples(costs), (longest: controlFigures[0], over: Int(controlFigures[1])), median(marking.costs))
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
