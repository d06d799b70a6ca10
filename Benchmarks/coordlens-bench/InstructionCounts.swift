// `coordlens-bench count GROUP DIR`: the hot paths as `make bench-check` counts their instructions under callgrind
// (scripts/bench_check.py). Every input is made here from fixed values: no clock, no randomness, no thread whose
// timing could change what the counted code does. This file needs only what every revision of the bench since the
// counts began has (`make bench-compare COUNTS=1` builds it into an older tree's bench): keep it so.
import CoordinatorLens
import CoordinatorLensRendering
import CoordinatorTrace
import Foundation

#if canImport(CoordinatorLensPage)
import CoordinatorLensPage
#endif

/// `count-inputs DIR` writes the recordings the groups read; `count GROUP DIR` runs one group. Either exits.
func runInstructionCountCommand() throws {
    let arguments = CommandLine.arguments
    if arguments.count == 3, arguments[1] == "count-inputs" {
        try writeCountInputs(arguments[2])
        exit(0)
    }
    if arguments.count == 4, arguments[1] == "count" {
        try countInstructions(arguments[2], inputs: arguments[3])
        exit(0)
    }
}

/// The one function whose instructions are counted: callgrind collects only while it runs (`--toggle-collect`) and
/// writes a dump as it returns (`--dump-after`), so each call is one figure. `dynamic` and never inlined, so it stays
/// one symbol of its own: the optimiser would otherwise make a copy of it for each closure it is given.
@inline(never)
dynamic func instructionCountedRegion(_ body: () -> Void) {
    body()
}

/// Names the next counted region for the driver, which reads the dumps in the same order: `region NAME OPERATIONS`.
func countedRegion(_ name: String, operations: Int, _ body: () -> Void) {
    print("region \(name) \(operations)")
    instructionCountedRegion(body)
}

/// The groups `make bench-check` runs, each a process of its own under callgrind.
let instructionCountGroups = ["empty", "hook", "writer", "decode", "reader", "check", "diff", "dot", "page", "baseline", "retainer"]

/// Groups that count code older trees lack, registered by this tree's main.swift with the folder `count-inputs`
/// wrote: built into an older tree's bench (`make bench-compare COUNTS=1`), they say they are unavailable there.
nonisolated(unsafe) var laterCountGroups: [String: (String) throws -> Void] = [:]

/// The recordings the decoding groups read, written by `count-inputs DIR` in a normal run before the groups run under
/// callgrind, where making them would take most of the time.
private func recordingFile(sitesEverywhere: Bool) -> String {
    sitesEverywhere ? "recording-100000-sites.ndjson" : "recording-100000.ndjson"
}

/// `count-inputs DIR`: writes the recordings the groups read.
func writeCountInputs(_ folder: String) throws {
    for sitesEverywhere in [false, true] {
        let path = URL(fileURLWithPath: folder).appendingPathComponent(recordingFile(sitesEverywhere: sitesEverywhere))
        try Data(generatedRecording(events: 100_000, sitesEverywhere: sitesEverywhere)).write(to: path)
    }
}

private func readRecording(_ folder: String, sitesEverywhere: Bool) throws -> [UInt8] {
    [UInt8](try Data(contentsOf: URL(fileURLWithPath: folder).appendingPathComponent(recordingFile(sitesEverywhere: sitesEverywhere))))
}

/// Runs one group: its inputs are built or read uncounted (`inputs` is the folder `count-inputs` wrote), then each of
/// its regions is counted.
func countInstructions(_ group: String, inputs: String) throws {
    switch group {
    case "empty": countedRegion("empty", operations: 1) {}
    case "hook": countHookCalls()
    case "writer": countWriterEncoding()
    case "reader": try countRegionDecoding(inputs)
    case "decode": try countDecoding(inputs)
    case "check": try countCheck(inputs)
    case "diff": countDiff()
    case "dot": countDOT()
    case "page":
        #if canImport(CoordinatorLensPage)
        try countPageModel()
        #else
        print("unavailable page: this build has no CoordinatorLensPage")
        #endif
    default:
        if let later = laterCountGroups[group] {
            try later(inputs)
            return
        }
        if instructionCountGroups.contains(group) {
            print("unavailable \(group): this tree's bench does not register it")
            return
        }
        FileHandle.standardError.write(Data("coordlens-bench count: no group \(group) (\(instructionCountGroups.joined(separator: ", ")))\n".utf8))
        exit(2)
    }
}

/// A sink that holds the writer thread in its first delivery until released, so that the writer takes no lock and
/// touches nothing the calling thread's counted calls touch: their count is the calling thread's alone, whatever the
/// scheduler does. Once released it takes every line at once. (Foundation's condition, not the project's
/// `ConditionBox`, which older trees that `make bench-compare COUNTS=1` builds this into do not have.)
final class ParkingSink: TraceSink, @unchecked Sendable {
    private let condition = NSCondition()
    private var parked = false
    private var released = false

    func deliver(_ lines: ArraySlice<[UInt8]>) -> Int {
        condition.lock()
        parked = true
        condition.broadcast()
        while !released { condition.wait() }
        condition.unlock()
        return lines.count
    }

    func close() {}

    /// Returns once the writer is held in `deliver`.
    func waitUntilParked() {
        condition.lock()
        while !parked { condition.wait() }
        condition.unlock()
    }

    func release() {
        condition.lock()
        released = true
        condition.broadcast()
        condition.unlock()
    }
}

/// The hook's calls with one call site, the same wherever the repository is: with the bench's own `#filePath`, the
/// writer's lines (and so its count) would be as long as the name of the folder the repository was cloned into.
private struct SitedTracer {
    let tracer: Tracer
    static let file: StaticString = "App/Flows.swift"
    static let path: StaticString = "/Users/dev/Shop/Sources/App/Flows.swift"
    static let function: StaticString = "start()"

    func added(_ child: AnyObject, to parent: AnyObject?) {
        tracer.added(child, to: parent, file: Self.file, line: 42, function: Self.function, filePath: Self.path)
    }
    func bind(_ coordinator: AnyObject, to screen: AnyObject) {
        tracer.bind(coordinator, to: screen, file: Self.file, line: 43, function: Self.function, filePath: Self.path)
    }
    func screenLeft(_ screen: AnyObject) {
        tracer.screenLeft(screen, file: Self.file, line: 44, function: Self.function, filePath: Self.path)
    }
    func dismissed(_ coordinator: AnyObject) {
        tracer.dismissed(coordinator, file: Self.file, line: 45, function: Self.function, filePath: Self.path)
    }
    func removed(_ child: AnyObject, from parent: AnyObject?) {
        tracer.removed(child, from: parent, file: Self.file, line: 46, function: Self.function, filePath: Self.path)
    }
    func mark(_ label: String) {
        tracer.mark(label, file: Self.file, line: 47, function: Self.function, filePath: Self.path)
    }
}

/// A tracer whose writer is parked in its sink before anything is tracked: a tick of a second (its longest), no
/// heartbeat within a minute, a queue and backlog that take every event the group makes.
private func parkedTracer() -> (tracer: Tracer, hook: SitedTracer, sink: ParkingSink) {
    let sink = ParkingSink()
    let tracer = Tracer()
    tracer.start(
        app: "Counts", sink: sink,
        options: TraceOptions(bufferCapacity: 1 << 20, backlogCapacity: 1 << 20, tickInterval: 1, heartbeatInterval: 60))
    sink.waitUntilParked()
    return (tracer, SitedTracer(tracer: tracer), sink)
}

/// Each hook call on the calling thread, 1,000 calls a kind (`mark`: 100), with 1,000 coordinators live under one
/// parent and the writer parked. The order makes every call do its work: re-added, bound to a screen each, their
/// screens leave, dismissed, removed; then marks over them all, then 1,000 coordinators seen for the first time.
private func countHookCalls() {
    let (_, hook, _) = parkedTracer()
    let parent = BenchCoordinator()
    let children = (0..<1_000).map { _ in BenchCoordinator() }
    let screens = (0..<1_000).map { _ in BenchCoordinator() }
    let fresh = (0..<1_000).map { _ in BenchCoordinator() }
    hook.added(parent, to: nil)
    for child in children { hook.added(child, to: parent) }
    // One call of each kind first, so the counted ones find the run-time's lazy bindings and metadata made.
    let spare = BenchCoordinator()
    let spareScreen = BenchCoordinator()
    hook.added(spare, to: parent)
    hook.bind(spare, to: spareScreen)
    hook.screenLeft(spareScreen)
    hook.dismissed(spare)
    hook.removed(spare, from: parent)
    hook.mark("warm")
    // An app calls the hook with references it holds: iterating the arrays would retain and release each one.
    let held = children.map { Unmanaged.passUnretained($0) }
    let heldScreens = screens.map { Unmanaged.passUnretained($0) }
    let heldFresh = fresh.map { Unmanaged.passUnretained($0) }
    countedRegion("hook.added", operations: held.count) {
        for child in held { child._withUnsafeGuaranteedRef { hook.added($0, to: parent) } }
    }
    // The floor the hook is judged against (`make bench`'s pairing): an uncontended lock around an append of the value.
    let floor = HookFloor(capacity: 1 << 16)
    floor.append(0)
    countedRegion("hook.floor", operations: held.count) {
        for index in held.indices { floor.append(index) }
    }
    countedRegion("hook.bind", operations: held.count) {
        for index in held.indices {
            held[index]._withUnsafeGuaranteedRef { child in heldScreens[index]._withUnsafeGuaranteedRef { hook.bind(child, to: $0) } }
        }
    }
    countedRegion("hook.screenLeft", operations: heldScreens.count) {
        for screen in heldScreens { screen._withUnsafeGuaranteedRef { hook.screenLeft($0) } }
    }
    countedRegion("hook.dismissed", operations: held.count) {
        for child in held { child._withUnsafeGuaranteedRef { hook.dismissed($0) } }
    }
    countedRegion("hook.removed", operations: held.count) {
        for child in held { child._withUnsafeGuaranteedRef { hook.removed($0, from: parent) } }
    }
    let label = "checkpoint"
    countedRegion("hook.mark", operations: 100) {
        for _ in 0..<100 { hook.mark(label) }
    }
    countedRegion("hook.added.first", operations: heldFresh.count) {
        for child in heldFresh { child._withUnsafeGuaranteedRef { hook.added($0, to: parent) } }
    }
    withExtendedLifetime((parent, children, screens, fresh, spare, spareScreen)) {}
    // No end(): it would wait out the grace of the dismissed coordinators and search for their holders.
}

/// The writer's encoding, per event: the calling thread queues 2,000 flows (add, bind, dismiss, remove, and the
/// coordinator's deinit, which the mark after every tenth flow finds) while the writer is parked, then the writer
/// takes them in one drain. The driver counts the writer's `SessionWriter.process` (every event's encoding and its
/// place in the backlog), not this region, which only says how many events there were.
private func countWriterEncoding() {
    let (tracer, hook, sink) = parkedTracer()
    let root = BenchCoordinator()
    hook.added(root, to: nil)
    for flow in 0..<2_000 {
        do {
            let child = BenchCoordinator()
            let screen = BenchScreenController()
            hook.added(child, to: root)
            hook.bind(child, to: screen)
            hook.dismissed(child)
            hook.removed(child, from: root)
        }
        if flow % 10 == 9 { hook.mark("checkpoint") }
    }
    sink.release()
    precondition(tracer.flush(timeout: 600), "the writer did not take the queued events")
    let events = tracer.counts?.events ?? 0
    precondition(events == 1 + 2_000 * 5 + 200, "the writer encoded \(events) events, not the 10,201 queued")
    countedRegion("writer.encode", operations: events) {}
    // No end(): its last lines would be encoded too.
    exit(0)
}

/// A view controller stand-in, so the writer writes a screen type of its own.
private final class BenchScreenController {}

/// Decode + apply of a fixed 100,000-event recording on one thread, as `make bench`'s one-thread figure reads it:
/// call sites on adds only, then on every event as the hook writes them.
private func countDecoding(_ inputs: String) throws {
    for sitesEverywhere in [false, true] {
        let count = 100_000
        let bytes = try readRecording(inputs, sitesEverywhere: sitesEverywhere)
        var tree: SessionTree?
        countedRegion(sitesEverywhere ? "decode.apply.sites" : "decode.apply", operations: count) { tree = decodeAndApply(bytes) }
        precondition(tree?.eventCount == count && tree?.diagnostics.isEmpty == true, "the recording did not decode cleanly")
    }
    // Moves of a 40-coordinator flow around the bottom of a 10,000-deep chain: each one's parent-cycle check.
    var moving = SessionTree(header: SessionHeader(app: "Counts", run: "moves"))
    let (chain, moves) = deepMoveRecords(depth: 10_000, flow: 40, moves: 20_000)
    chain.forEach { moving.apply($0) }
    countedRegion("decode.move", operations: moves.count) { moves.forEach { moving.apply($0) } }
    precondition(moving.diagnostics.isEmpty, "the moves applied with a warning")
}

/// The records of a `depth`-deep chain and a `flow` of coordinators under a root of its own (ids from 1,000,000),
/// then `moves` re-adds of the flow's root under one of the chain's bottom 50: what `check` and `listen` do with an
/// app that moves a flow between deep screens.
func deepMoveRecords(depth: Int, flow: Int, moves: Int) -> (setUp: [EventRecord], moves: [EventRecord]) {
    var setUp: [EventRecord] = []
    var seq = 0
    func record(_ event: Event) -> EventRecord {
        seq += 1
        return EventRecord(seq: seq, time: 0, event: event)
    }
    setUp.append(record(.add(id: 1, type: "AppCoordinator", parent: nil)))
    for id in 2...depth { setUp.append(record(.add(id: CoordinatorID(id), type: "StepCoordinator", parent: CoordinatorID(id - 1)))) }
    setUp.append(record(.add(id: 1_000_000, type: "FlowCoordinator", parent: nil)))
    for id in 1_000_001..<(1_000_000 + flow) {
        setUp.append(record(.add(id: CoordinatorID(id), type: "ScreenCoordinator", parent: CoordinatorID((id - 1_000_000) / 2 + 1_000_000))))
    }
    let moving = (0..<moves).map { move in
        record(.add(id: 1_000_000, type: "FlowCoordinator", parent: CoordinatorID(depth - move % 50)))
    }
    return (setUp, moving)
}

/// The reader's second thread on a fixed 100,000-event recording read as the command line reads it (1 MiB chunks):
/// callgrind collects inside `RegionDecoder.run` only (`scripts/bench_check.py`), so the figure is that thread's
/// splitting, decoding and batching, which `check`'s figure, on one thread, leaves out.
private func countRegionDecoding(_ inputs: String) throws {
    let count = 100_000
    let bytes = try readRecording(inputs, sitesEverywhere: false)
    var reader = StreamReader()
    reader.concurrentRegionBytes = 1 << 18
    var records = 0
    bytes.withUnsafeBytes { raw in
        var offset = 0
        while offset < raw.count {
            let end = min(offset + (1 << 20), raw.count)
            reader.consume(UnsafeRawBufferPointer(rebasing: raw[offset..<end])) { item, _ in
                if case .record = item { records += 1 }
            }
            offset = end
        }
        reader.finish { item, _ in
            if case .record = item { records += 1 }
        }
    }
    precondition(records == count, "the recording did not read cleanly")
    precondition(reader.regionsDecodedElsewhere > 0, "no region was decoded on the second thread")
    countedRegion("decode.region", operations: count) {}
    exit(0)
}

/// `check` of a 100,000-event recording, as `check-child` does it (1 MiB chunks, the tree kept, judged, the text
/// report), on one thread: the reader's second thread is off, since its hand-offs depend on timing.
private func countCheck(_ inputs: String) throws {
    let bytes = try readRecording(inputs, sitesEverywhere: false)
    var report = ""
    var failure: Error?
    countedRegion("check", operations: 1) {
        var recording = Recording(keeping: .treeAtEnd)
        recording.concurrentRegionBytes = .max
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let end = min(offset + (1 << 20), raw.count)
                recording.consume(UnsafeRawBufferPointer(rebasing: raw[offset..<end]))
                offset = end
            }
        }
        recording.finish()
        do {
            let checks = try recording.sessions.map { SessionCheck(source: "bench.ndjson", snapshot: try $0.snapshot(), atEnd: true) }
            report = LeakReport.text(for: CheckResult(grace: VerdictRules.defaultGrace, sessions: checks))
        } catch {
            failure = error
        }
    }
    if let failure { throw failure }
    precondition(report.utf8.count > 100_000, "100,000 events with leaks make a long report")
}

/// `diff` of two 100,000-coordinator runs, as `make bench`'s diff figure (the two snapshots are built uncounted).
private func countDiff() {
    let a = diffSnapshot(firstID: 0, leakEvery: 20)
    let b = diffSnapshot(firstID: 1_000_000, leakEvery: 25)
    var summary = ""
    countedRegion("diff", operations: 1) {
        summary = TreeDiffReport.summaryLine(for: TreeDiff(a, b))
    }
    precondition(!summary.isEmpty)
}

/// The DOT text of 20,000 coordinators drawn whole (`--all`), as the render figure's "writing DOT".
private func countDOT() {
    let snapshot = benchTree(size: 20_000)
    var all = RenderOptions()
    all.collapseThreshold = .max
    var length = 0
    countedRegion("dot", operations: 1) {
        length = DOTWriter(options: all).document(for: snapshot).text.utf8.count
    }
    precondition(length > 1_000_000)
}

#if canImport(CoordinatorLensPage)
/// The page's model of 100,000 coordinators as JSON, as `/api/model` answers it for a recorded session.
private func countPageModel() throws {
    let snapshot = benchTree(size: 100_000)
    var json: [UInt8] = []
    var failure: Error?
    countedRegion("page.json", operations: 1) {
        let summary = SessionSummary(snapshot, state: "recorded", version: 0, events: 100_000)
        do {
            json = try TreeModel(snapshot, summary: summary, seq: nil, history: nil, historyComplete: true, atEnd: true).json()
        } catch {
            failure = error
        }
    }
    if let failure { throw failure }
    precondition(json.count > 1_000_000)
}
#endif
