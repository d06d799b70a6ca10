// `make bench`: the performance figures and their targets, measured in a release build.
import CoordinatorLens
import CoordinatorTrace
import Foundation

/// Takes lines and forgets them, so the hook's own cost is what is measured.
final class DiscardingSink: TraceSink, @unchecked Sendable {
    func deliver(_ lines: ArraySlice<[UInt8]>) -> Int { lines.count }
    func close() {}
}

final class BenchCoordinator: Sendable {}

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
    // 200 batches, 50 of each kind: enough for stable medians, and `mark` (a sweep over every live object on Linux)
    // would otherwise take most of the bench's two minutes.
    for round in 0..<200 {
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
    print(
        String(
            format:
                "hook cost per event on the calling thread: median %.0f ns (p90 %.0f ns) over %d batches of %d (by kind, ns: %@); first sighting of an object %.0f ns  [target ≤ 100 ns median]",
            median(perEvent), percentile(perEvent, 0.9), perEvent.count, batch, kinds, firstSighting))
}

/// A recording of `count` events: flows under a root, each added, bound, dismissed, removed and mostly deinited.
/// With `sitesEverywhere` every event names its call site, path included, as the hook writes them.
func generatedRecording(events count: Int, sitesEverywhere: Bool = false) -> [UInt8] {
    var text = "{\"event\":\"session\",\"v\":1,\"app\":\"Bench\",\"run\":\"bench-run\",\"pid\":1}\n"
    text.reserveCapacity(count * 90)
    var seq = 0
    var nextID = 1
    var time = 0.0
    func line(_ body: String) {
        seq += 1
        time += 0.000_1
        let site =
            sitesEverywhere && !body.contains("\"file\"")
            ? ",\"file\":\"App/Flows.swift\",\"line\":\(seq % 40),\"function\":\"finish()\",\"path\":\"/Users/dev/Shop/Sources/App/Flows.swift\"" : ""
        text += "{\"seq\":\(seq),\"t\":\(String(format: "%.6f", time)),\(body)\(site)}\n"
    }
    line("\"event\":\"add\",\"id\":1,\"type\":\"AppCoordinator\",\"file\":\"App/AppCoordinator.swift\",\"line\":12")
    let types = ["HomeCoordinator", "YellowCoordinator", "GreenCoordinator", "CheckoutFlowCoordinator"]
    var flow = 0
    while seq < count - 5 {
        nextID += 1
        let id = nextID
        flow += 1
        line(
            "\"event\":\"add\",\"id\":\(id),\"type\":\"\(types[flow % types.count])\",\"parent\":1,\"file\":\"App/Flows.swift\",\"line\":\(flow % 400),\"function\":\"start()\""
        )
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

/// Decode (and apply) of a generated file of a million events, read back from disk as a user's file would be, five
/// runs back to back in this process. The figures of record run each in a fresh process (`DecodeRuns.swift`); this
/// one is kept for the decoder alone, and to show what a heap left by the run before does to the tree's.
func decodeBackToBack(applying: Bool = true) throws {
    let count = 1_000_000
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("coordlens-bench-\(getpid()).ndjson")
    try Data(generatedRecording(events: count)).write(to: path)
    defer { try? FileManager.default.removeItem(at: path) }
    let bytes = [UInt8](try Data(contentsOf: path))
    var rates: [Double] = []
    for _ in 0..<5 {
        if applying {
            rates.append(DecodeRun.oneThread.measure(bytes, events: count).rate)
            continue
        }
        let start = nanos()
        var splitter = LineSplitter()
        var strings = StringInterner()
        var records = 0
        bytes.withUnsafeBytes { raw in
            splitter.feed(raw) { line, number in
                if case .record = EventDecoder.decode(line, lineNumber: number, strings: &strings) { records += 1 }
            }
        }
        precondition(records == count, "bench file did not decode cleanly")
        rates.append(Double(count) / (Double(nanos() - start) / 1e9))
    }
    print(
        String(
            format: (applying ? "decode+apply back to back in one process" : "decode alone")
                + " on one thread, its CPU time: median %.2f M events/s (min %.2f, max %.2f) over 5 runs of a %.0f MB, %d-event file  [no target of its own]",
            median(rates) / 1e6, rates.min()! / 1e6, rates.max()! / 1e6, Double(bytes.count) / 1e6, count))
}

/// Exactly `count` coordinators: App → tabs → 200 features each (8 types), every 10th feature with a 5-deep chain;
/// every `leakEvery`-th feature is dismissed and never deinited.
func diffSnapshot(count: Int = 100_000, firstID: Int, leakEvery: Int) -> Snapshot {
    var tree = SessionTree(header: SessionHeader(app: "Bench", run: "run-\(firstID)"))
    var seq = 0
    var nextID = firstID
    var made = 0
    var feature = 0
    func apply(_ event: Event) {
        seq += 1
        tree.apply(EventRecord(seq: seq, time: Double(seq) * 0.001, event: event))
    }
    func add(_ type: String, under parent: Int?) -> Int? {
        guard made < count else { return nil }
        made += 1
        nextID += 1
        apply(.add(id: CoordinatorID(nextID), type: type, parent: parent.map { CoordinatorID($0) }))
        return nextID
    }
    let app = add("AppCoordinator", under: nil)!
    while made < count {
        guard let tab = add("TabCoordinator", under: app) else { break }
        for _ in 0..<200 {
            feature += 1
            guard let child = add("Feature\(feature % 8)Coordinator", under: tab) else { break }
            if feature % leakEvery == 0 { apply(.dismiss(id: CoordinatorID(child))) }
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
    print(
        String(
            format: "diff of two 100,000-coordinator runs: median %.3f s (min %.3f, max %.3f) over 5 runs; %@  [target < 1 s]",
            median(times), times.min()!, times.max()!, String(summary.prefix(60))))
}

/// NDJSON for one session: `events` as `"event":…` bodies, numbered and timed 1 ms apart, then an `end` 10 s later.
func recordingText(run: String, _ events: [String]) -> [UInt8] {
    var text = "{\"event\":\"session\",\"v\":1,\"app\":\"Bench\",\"run\":\"\(run)\"}\n"
    for (index, body) in events.enumerated() {
        text += "{\"seq\":\(index + 1),\"t\":\(Double(index) / 1000),\(body)}\n"
    }
    text += "{\"seq\":\(events.count + 1),\"t\":\(Double(events.count) / 1000 + 10),\"event\":\"end\"}\n"
    return Array(text.utf8)
}

/// A chain `depth` deep under an AppCoordinator; with `leaking`, every step is dismissed and never deinited.
func chainRecording(depth: Int, firstID: Int, leaking: Bool) -> [UInt8] {
    var events = ["\"event\":\"add\",\"id\":\(firstID),\"type\":\"AppCoordinator\""]
    for id in firstID + 1..<firstID + depth {
        events.append("\"event\":\"add\",\"id\":\(id),\"type\":\"StepCoordinator\",\"parent\":\(id - 1)")
    }
    if leaking { for id in firstID + 1..<firstID + depth { events.append("\"event\":\"dismiss\",\"id\":\(id)") } }
    return recordingText(run: "chain-\(firstID)", events)
}

/// One hub with `children` children; with `removingAll`, each is then removed in the order it was added.
func starRecording(children: Int, removingAll: Bool) -> [UInt8] {
    var events = ["\"event\":\"add\",\"id\":1,\"type\":\"HubCoordinator\""]
    for id in 2...children + 1 { events.append("\"event\":\"add\",\"id\":\(id),\"type\":\"SpokeCoordinator\",\"parent\":1") }
    if removingAll { for id in 2...children + 1 { events.append("\"event\":\"remove\",\"id\":\(id),\"parent\":1") } }
    return recordingText(run: "star", events)
}

/// Seconds of this thread's CPU time `body` takes, and its result.
func timed<T>(_ body: () throws -> T) rethrows -> (seconds: Double, value: T) {
    let start = nanos()
    let value = try body()
    return (Double(nanos() - start) / 1e9, value)
}

/// The process's peak resident memory so far, in MB.
func peakMegabytes() -> Double {
    var usage = rusage()
    #if os(Linux)
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Double(usage.ru_maxrss) / 1024  // kilobytes here
    #else
    getrusage(RUSAGE_SELF, &usage)
    return Double(usage.ru_maxrss) / 1024 / 1024  // bytes on Darwin
    #endif
}

/// The shapes the hardening issue measured: a 100,000-deep chain judged as `check` does and diffed against another
/// run, a 200,000-child star, and the same star with every child removed in the order added.
func hostileShapes() {
    var ids = [1_023]
    while ids.count < 21 { ids.append(2 * ids.last! + 1_025) }
    ids.append(1 << 62)
    let sparse = recordingText(run: "sparse", ids.map { "\"event\":\"add\",\"id\":\($0),\"type\":\"C\"" })
    let memoryBefore = peakMegabytes()
    let sparseJudged = timed { try! Recording(bytes: sparse).sessions[0].snapshot() }
    print(
        String(
            format: "%d-byte file of %d ids roughly doubling up to 2^62: judged in %.4f s (%d coordinators), peak memory %.0f MB → %.0f MB  [was 8.4 GB]",
            sparse.count, ids.count, sparseJudged.seconds, sparseJudged.value.nodes.count, memoryBefore, peakMegabytes()))

    let depth = 100_000
    let a = chainRecording(depth: depth, firstID: 1, leaking: false)
    let b = chainRecording(depth: depth, firstID: 1_000_000, leaking: true)
    let judged = timed { try! Recording(bytes: b).sessions[0].snapshot() }
    print(
        String(
            format: "100,000-deep chain, every step leaking: read, replayed and judged in %.3f s (%d retained, %.1f MB of NDJSON)",
            judged.seconds, judged.value.retained.count, Double(b.count) / 1e6))
    let snapshotA = try! Recording(bytes: a).sessions[0].snapshot()
    let diff = timed { TreeDiff(snapshotA, judged.value) }
    let text = timed { TreeDiffReport.text(for: diff.value) }
    // The JSON of this diff (173 MB, 7.5 s) is left out to keep the bench under two minutes; the text shows the size.
    print(
        String(
            format: "diff of two 100,000-deep chains: %.3f s to diff, %.3f s for the text (%.1f MB); %@  [was killed at 24 GB]",
            diff.seconds, text.seconds, Double(text.value.utf8.count) / 1e6,
            String(TreeDiffReport.summaryLine(for: diff.value).prefix(50))))

    let star = starRecording(children: 200_000, removingAll: false)
    let starJudged = timed { try! Recording(bytes: star).sessions[0].snapshot() }
    print(
        String(
            format: "200,000-child star: read, replayed and judged in %.3f s (%d coordinators)",
            starJudged.seconds, starJudged.value.nodes.count))
    let removal = starRecording(children: 200_000, removingAll: true)
    let removed = timed { try! Recording(bytes: removal).sessions[0].snapshot() }
    print(
        String(
            format: "200,000-child star, every child removed in the order added: %.3f s (hub keeps %d children, %d roots)  [was 10.6 s]",
            removed.seconds, removed.value.nodes[0].children.count, removed.value.roots.count))
    print(String(format: "peak resident memory of the bench so far: %.0f MB", peakMegabytes()))
}

// `count-inputs DIR`, then `count GROUP DIR`: `make bench-check`'s instruction counts (InstructionCounts.swift).
laterCountGroups["baseline"] = countBaselines
laterCountGroups["retainer"] = countRetainerSearch
try runInstructionCountCommand()
try runDecodeCommand()
// `coordlens-bench [hook|hook-ratios|idle|sweep|stalls|drain|hold|growth|decode|decode-only|decode-sites|decoder-ratio|check|diff|diff-1m|shapes|summary|render]...` runs a subset, for profiling one figure.
let wanted = Set(CommandLine.arguments.dropFirst())
// The child processes of the `check` figure.
if CommandLine.arguments.count == 3, CommandLine.arguments[1] == "check-child" {
    try checkChild(CommandLine.arguments[2])
    exit(0)
}
if CommandLine.arguments.count == 4, CommandLine.arguments[1] == "write-recording" {
    try writeRecording(CommandLine.arguments[2], events: Int(CommandLine.arguments[3])!)
    exit(0)
}
print("coordlens-bench (release build; \(ProcessInfo.processInfo.activeProcessorCount) cores; times are the measuring thread's CPU time)")
// First, while the bench process is small: a child it starts counts the memory it had then.
if wanted.isEmpty || wanted.contains("check") { try checkAsAProcess() }
if wanted.isEmpty || wanted.contains("hook") { hookCost() }
if wanted.isEmpty || wanted.contains("hook") || wanted.contains("hook-ratios") {
    hookRatios()
    hookParts()
}
if wanted.isEmpty || wanted.contains("hook") || wanted.contains("idle") { idleWakeUps() }
if wanted.isEmpty || wanted.contains("sweep") || wanted.contains("stalls") { hookStalls() }
if wanted.isEmpty || wanted.contains("retainers") {
    retainerSearchTime()
    retainerBackwardTime()
}
if wanted.isEmpty || wanted.contains("drain") { try drainFigures() }
if wanted.contains("drain-file") { try drainFigures(only: "file") }
if wanted.contains("drain-listen") { try drainFigures(only: "listen") }
if wanted.isEmpty || wanted.contains("hold") { intakeHold() }
if wanted.isEmpty || wanted.contains("growth") { growthTime() }
if wanted.isEmpty || wanted.contains("decode") {
    try decodeFigures()
    try decodeBackToBack()
}
// The decoder alone, without the tree, to tell which of the two a change in the figure above comes from.
if wanted.contains("decode-only") { try decodeBackToBack(applying: false) }
// What the hook really writes: the call site, path included, on every line (the figures above have it on adds only).
if wanted.isEmpty || wanted.contains("decode-sites") { try decodeFigures(sitesEverywhere: true) }
if wanted.isEmpty || wanted.contains("decoder-ratio") { decoderVersusFoundation() }
if wanted.isEmpty || wanted.contains("diff") { diffTime() }
if wanted.isEmpty || wanted.contains("diff-1m") { diffOfMillions() }
if wanted.isEmpty || wanted.contains("shapes") { hostileShapes() }
if wanted.isEmpty || wanted.contains("fuzz-shapes") { fuzzShapeGrowth() }
if wanted.isEmpty || wanted.contains("summary") { summaryTime() }
if wanted.isEmpty || wanted.contains("baseline") { baselineFigures() }
if wanted.isEmpty || wanted.contains("render") { renderFigures() }
