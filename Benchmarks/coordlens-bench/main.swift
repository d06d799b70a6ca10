// `make bench`: the figures the issues set targets for, measured in a release build.
import CoordinatorLens
import CoordinatorTrace
import Foundation

/// Takes lines and forgets them, so the hook's own cost is what is measured.
final class DiscardingSink: TraceSink, @unchecked Sendable {
    func deliver(_ lines: ArraySlice<[UInt8]>) -> Int { lines.count }
    func close() {}
}

final class BenchCoordinator {}

/// This thread's CPU time: on a shared 2-core machine, wall time also counts the moments other processes ran instead.
func nanos() -> UInt64 {
    var now = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
    return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted[sorted.count / 2]
}

func percentile(_ values: [Double], _ p: Double) -> Double {
    let sorted = values.sorted()
    return sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]
}

/// The calling thread's cost of one hook call: batches of calls timed back to back, the writer drained in between.
func hookCost() {
    let tracer = Tracer()
    tracer.start(app: "Bench", sink: DiscardingSink(), options: TraceOptions(bufferCapacity: 1 << 16))
    let parent = BenchCoordinator()
    let children = (0..<1_000).map { _ in BenchCoordinator() }
    tracer.added(parent, to: nil)
    let firstStart = nanos()
    for child in children { tracer.added(child, to: parent) }
    let firstSighting = Double(nanos() - firstStart) / Double(children.count)
    tracer.flush()

    var perEvent: [Double] = []
    var perKind: [String: [Double]] = [:]
    let batch = 1_000
    let label = "checkpoint"
    for round in 0..<400 {
        let kind = ["added", "dismissed", "removed", "mark"][round % 4]
        let start = nanos()
        switch kind {
        case "added": for child in children { tracer.added(child, to: parent) }
        case "dismissed": for child in children { tracer.dismissed(child) }
        case "removed": for child in children { tracer.removed(child, from: parent) }
        default: for _ in children { tracer.mark(label) }
        }
        let cost = Double(nanos() - start) / Double(batch)
        perEvent.append(cost)
        perKind[kind, default: []].append(cost)
        tracer.flush()
    }
    let kinds = perKind.keys.sorted().map { String(format: "%@ %.0f", $0, median(perKind[$0]!)) }.joined(separator: ", ")
    tracer.end()
    print(String(format: "hook cost per event on the calling thread: median %.0f ns (p90 %.0f ns) over %d batches of %d (by kind, ns: %@); first sighting of an object %.0f ns  [target ≤ 1000 ns median]",
                 median(perEvent), percentile(perEvent, 0.9), perEvent.count, batch, kinds, firstSighting))
}

/// A recording of `count` events: flows under a root, each added, bound, dismissed, removed and mostly deinited.
func generatedRecording(events count: Int) -> [UInt8] {
    var text = "{\"event\":\"session\",\"v\":1,\"app\":\"Bench\",\"run\":\"bench-run\",\"pid\":1}\n"
    text.reserveCapacity(count * 90)
    var seq = 0
    var nextID = 1
    var time = 0.0
    func line(_ body: String) {
        seq += 1
        time += 0.000_1
        text += "{\"seq\":\(seq),\"t\":\(String(format: "%.6f", time)),\(body)}\n"
    }
    line("\"event\":\"add\",\"id\":1,\"type\":\"AppCoordinator\",\"file\":\"App/AppCoordinator.swift\",\"line\":12")
    let types = ["HomeCoordinator", "YellowCoordinator", "GreenCoordinator", "CheckoutFlowCoordinator"]
    var flow = 0
    while seq < count - 5 {
        nextID += 1
        let id = nextID
        flow += 1
        line("\"event\":\"add\",\"id\":\(id),\"type\":\"\(types[flow % types.count])\",\"parent\":1,\"file\":\"App/Flows.swift\",\"line\":\(flow % 400),\"function\":\"start()\"")
        line("\"event\":\"bind\",\"id\":\(id),\"screen\":\"FlowViewController\"")
        line("\"event\":\"dismiss\",\"id\":\(id)")
        if flow % 10 != 0 {
            line("\"event\":\"remove\",\"id\":\(id),\"parent\":1")
            line("\"event\":\"deinit\",\"id\":\(id)")
        }
    }
    while seq < count - 1 { line("\"event\":\"mark\",\"label\":\"checkpoint\"") }
    line("\"event\":\"end\"")
    return Array(text.utf8)
}

/// Decode + apply throughput on a generated file of a million events, read back from disk as a user's file would be.
func decodeThroughput() throws {
    let count = 1_000_000
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("coordlens-bench-\(getpid()).ndjson")
    try Data(generatedRecording(events: count)).write(to: path)
    defer { try? FileManager.default.removeItem(at: path) }
    let bytes = try Data(contentsOf: path)
    var rates: [Double] = []
    var coordinators = 0
    for _ in 0..<5 {
        let start = nanos()
        var tree: SessionTree?
        var splitter = LineSplitter()
        bytes.withUnsafeBytes { raw in
            splitter.feed(raw) { line, number in
                switch EventDecoder.decode(line, lineNumber: number) {
                case .session(let header, _): tree = SessionTree(header: header)
                case .record(let record): tree?.apply(record)
                case .malformed(let diagnostic): tree?.report(diagnostic)
                case .blank: break
                }
            }
        }
        let seconds = Double(nanos() - start) / 1e9
        precondition(tree?.eventCount == count && tree?.diagnostics.isEmpty == true, "bench file did not decode cleanly")
        coordinators = tree?.all.count ?? 0
        rates.append(Double(count) / seconds)
    }
    print(String(format: "decode+apply: median %.2f M events/s (min %.2f, max %.2f) over 5 runs of a %.0f MB, %d-event file with %d coordinators  [target ≥ 1 M events/s]",
                 median(rates) / 1e6, rates.min()! / 1e6, rates.max()! / 1e6, Double(bytes.count) / 1e6, count, coordinators))
}

/// Exactly `count` coordinators: App → tabs → 200 features each (8 types), every 10th feature with a 5-deep chain;
/// every `leakEvery`-th feature is dismissed and never deinited.
func diffSnapshot(count: Int = 100_000, firstID: Int, leakEvery: Int) -> Snapshot {
    var tree = SessionTree(header: SessionHeader(app: "Bench", run: "run-\(firstID)"))
    var seq = 0, nextID = firstID, made = 0, feature = 0
    func apply(_ event: Event) {
        seq += 1
        tree.apply(EventRecord(seq: seq, time: Double(seq) * 0.001, event: event))
    }
    func add(_ type: String, under parent: Int?) -> Int? {
        guard made < count else { return nil }
        made += 1
        nextID += 1
        apply(.add(id: nextID, type: type, parent: parent))
        return nextID
    }
    let app = add("AppCoordinator", under: nil)!
    while made < count {
        guard let tab = add("TabCoordinator", under: app) else { break }
        for _ in 0..<200 {
            feature += 1
            guard let child = add("Feature\(feature % 8)Coordinator", under: tab) else { break }
            if feature % leakEvery == 0 { apply(.dismiss(id: child)) }
            if feature % 10 == 0 {
                var parent = child
                for _ in 0..<5 { if let step = add("StepCoordinator", under: parent) { parent = step } }
            }
        }
    }
    tree.apply(EventRecord(seq: seq + 1, time: Double(seq) * 0.001 + 10, event: .end))
    return tree.snapshot()
}

/// Diffing two runs of 100,000 coordinators each, with other ids and other leaks on each side.
func diffTime() {
    let a = diffSnapshot(firstID: 0, leakEvery: 20)
    let b = diffSnapshot(firstID: 1_000_000, leakEvery: 25)
    var times: [Double] = []
    var summary = ""
    for _ in 0..<5 {
        let start = nanos()
        let diff = TreeDiff(a, b)
        times.append(Double(nanos() - start) / 1e9)
        summary = TreeDiffReport.summaryLine(for: diff)
    }
    print(String(format: "diff of two 100,000-coordinator runs: median %.3f s (min %.3f, max %.3f) over 5 runs; %@  [target < 1 s]",
                 median(times), times.min()!, times.max()!, String(summary.prefix(60))))
}

// `coordlens-bench [hook|decode|diff]...` runs a subset, for profiling one figure.
let wanted = Set(CommandLine.arguments.dropFirst())
print("coordlens-bench (release build; \(ProcessInfo.processInfo.activeProcessorCount) cores; times are the measuring thread's CPU time)")
if wanted.isEmpty || wanted.contains("hook") { hookCost() }
if wanted.isEmpty || wanted.contains("decode") { try decodeThroughput() }
if wanted.isEmpty || wanted.contains("diff") { diffTime() }
