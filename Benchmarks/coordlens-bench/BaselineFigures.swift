// Baselines written and read at scale, and moves into a deep chain: what a team's growing app does to `baseline`,
// `check --baseline` and `listen` (issue 56's figures, each against its target).
import CoordinatorLens
import Foundation

/// The baseline of a 4-ary tree of `size` coordinators (`benchTree`, 2 % of them retained, nearly each with a type path
/// of its own): 28,600 give the 572 leaks of the issue's slowest baseline.
private func treeBaseline(size: Int) -> (baseline: LeakBaseline, check: SessionCheck) {
    let check = SessionCheck(source: "bench.ndjson", snapshot: benchTree(size: size), atEnd: true)
    return (LeakBaseline(checks: [check]), check)
}

/// The baseline's text as a file holds it.
private func baselineBytes(_ baseline: LeakBaseline) -> [UInt8] {
    Array(BaselineFormat.text(for: baseline).utf8)
}

private func readBaseline(_ bytes: [UInt8]) -> LeakBaseline {
    bytes.withUnsafeBufferPointer { buffer in
        do {
            return try BaselineFormat.read(buffer)
        } catch {
            fatalError("the bench's own baseline did not read back: \(error)")
        }
    }
}

/// A recording of an app of about `coordinators` coordinators: 10 features of 10 flows of 10 screens, each screen's
/// leaves of 20 types, a third of them removed and freed, one in 600 dismissed and kept (retained): the shape of
/// issue 52's synthetic app, with about 20,000 type paths for the baseline to list.
private func appRecording(coordinators: Int) -> [UInt8] {
    var text = "{\"event\":\"session\",\"v\":1,\"app\":\"Shop\",\"run\":\"shop-\(coordinators)\",\"pid\":1}\n"
    var seq = 0
    var nextID = 1
    func line(_ time: Double, _ body: String) {
        seq += 1
        text += "{\"seq\":\(seq),\"t\":\(time),\(body)}\n"
    }
    line(0, "\"event\":\"add\",\"id\":1,\"type\":\"AppCoordinator\"")
    let leavesPerScreen = max(1, coordinators / 1_000 - 1)
    var leaves: [(id: Int, screen: Int)] = []
    func add(_ type: String, under parent: Int) -> Int {
        nextID += 1
        line(0.1, "\"event\":\"add\",\"id\":\(nextID),\"type\":\"\(type)\",\"parent\":\(parent)")
        return nextID
    }
    for feature in 0..<10 {
        let featureID = add("Feature\(feature)Coordinator", under: 1)
        for flow in 0..<10 {
            let flowID = add("Flow\(flow)Coordinator", under: featureID)
            for screen in 0..<10 {
                let screenID = add("Screen\(screen)Coordinator", under: flowID)
                for leaf in 0..<leavesPerScreen { leaves.append((add("Leaf\(leaf % 20)Coordinator", under: screenID), screenID)) }
            }
        }
    }
    for (number, leaf) in leaves.enumerated() {
        if number % 600 == 599 {
            line(1, "\"event\":\"dismiss\",\"id\":\(leaf.id)")
        } else if number % 3 == 2 {
            line(1, "\"event\":\"remove\",\"id\":\(leaf.id),\"parent\":\(leaf.screen)")
            line(1, "\"event\":\"deinit\",\"id\":\(leaf.id)")
        }
    }
    line(30, "\"event\":\"end\"")
    return Array(text.utf8)
}

/// What `check FILE` does with a file's bytes: read keeping each session's last tree, judge, write the text report.
private func checkText(_ bytes: [UInt8]) -> String {
    let recording = Recording(bytes: bytes, keeping: .treeAtEnd)
    let checks = recording.sessions.map { SessionCheck(source: "shop.ndjson", snapshot: try! $0.snapshot(), atEnd: true) }
    return LeakReport.text(for: CheckResult(grace: VerdictRules.defaultGrace, sessions: checks))
}

/// What `baseline FILE` does with a file's bytes: summarise it as `--summary` does, write the baseline's text.
private func baselineText(_ bytes: [UInt8]) -> String {
    BaselineFormat.text(for: LeakBaseline(summary: try! LeakSummary(reading: bytes, source: "shop.ndjson")))
}

/// `make bench-check`'s `baseline` group: reading a 572-leak baseline (per leak) and `baseline` of a 40,000-coordinator
/// recording (per recording), each input built uncounted.
func countBaselines(_ inputs: String) {
    let small = treeBaseline(size: 28_600).baseline
    let bytes = baselineBytes(small)
    var read: LeakBaseline?
    countedRegion("baseline.read", operations: small.counts.count) { read = readBaseline(bytes) }
    precondition(read == small && small.counts.count > 500, "the baseline did not read back")
    let recording = appRecording(coordinators: 40_000)
    var length = 0
    countedRegion("baseline.write", operations: 1) { length = baselineText(recording).utf8.count }
    precondition(length > 100_000)
}

/// `make bench baseline`: `baseline` of a 200,000-coordinator app against `check` of it, a 572-leak baseline read,
/// and 80,000 moves of a flow into a deep chain against 20,000.
func baselineFigures() {
    let recording = appRecording(coordinators: 200_000)
    var checkSeconds: [Double] = []
    var baselineSeconds: [Double] = []
    for _ in 0..<3 {
        checkSeconds.append(timed { checkText(recording) }.seconds)
        baselineSeconds.append(timed { baselineText(recording) }.seconds)
    }
    let writeRatio = median(baselineSeconds) / median(checkSeconds)
    print(
        String(
            format: "baseline of a 200,000-coordinator app (20,000 type paths): %.3f s against check %.3f s, %.2f× (target ≤ 2×; was 10-30 s) %@",
            median(baselineSeconds), median(checkSeconds), writeRatio, writeRatio <= 2 ? "ok" : "MISSED"))
    let small = treeBaseline(size: 28_600).baseline
    let bytes = baselineBytes(small)
    let readSeconds = median((0..<5).map { _ in timed { readBaseline(bytes) }.seconds })
    print(
        String(
            format: "reading a %d-leak baseline (%d KB): %.4f s (target ≤ 0.5 s over check; was 59.9 s) %@",
            small.counts.count, bytes.count / 1_000, readSeconds, readSeconds <= 0.5 ? "ok" : "MISSED"))

    var moveSeconds: [Int: Double] = [:]
    for moves in [20_000, 80_000] {
        let (setUp, moving) = deepMoveRecords(depth: 10_000, flow: 40, moves: moves)
        var tree = SessionTree(header: SessionHeader(app: "Bench", run: "moves-\(moves)"))
        setUp.forEach { tree.apply($0) }
        moveSeconds[moves] = timed { moving.forEach { tree.apply($0) } }.seconds
        precondition(tree.diagnostics.isEmpty)
    }
    let moveRatio = moveSeconds[80_000]! / moveSeconds[20_000]!
    print(
        String(
            format: "moving a 40-coordinator flow into a 10,000-deep chain: 20,000 moves %.3f s, 80,000 %.3f s, %.2f× (target ≤ 4×; was 29.1 s for 80,000) %@",
            moveSeconds[20_000]!, moveSeconds[80_000]!, moveRatio, moveRatio <= 4 ? "ok" : "MISSED"))
}
