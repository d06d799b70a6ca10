import CoordinatorLens
import Foundation

/// Wall-clock seconds: `check --summary` spreads recordings over every core, so the measuring thread's CPU time
/// would leave out the other cores' work.
private func wallSeconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
}

/// This process's CPU time on every thread, in seconds.
private func processCPUSeconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
}

/// A UI-test run's recording of about `flows` × 10 events: flows under a tab, each added, bound, dismissed and
/// removed; some leak, by one of four fingerprints, depending on the run's number; odd runs use string ids.
private func summaryRecording(run: Int, flows: Int) -> String {
    var text = "{\"event\":\"session\",\"v\":1,\"app\":\"Nightly\",\"run\":\"night-\(run)\",\"pid\":\(run)}\n"
    var seq = 0
    var time = 0.0
    func id(_ number: Int) -> String { run % 2 == 1 ? "\"n\(number)\"" : "\(number)" }
    func line(_ body: String) {
        seq += 1
        time += 0.01
        text += "{\"seq\":\(seq),\"t\":\(String(format: "%.3f", time)),\(body)}\n"
    }
    line("\"event\":\"add\",\"id\":\(id(1)),\"type\":\"AppCoordinator\",\"file\":\"App/App.swift\",\"line\":3")
    line("\"event\":\"add\",\"id\":\(id(2)),\"type\":\"TabCoordinator\",\"parent\":\(id(1)),\"file\":\"App/App.swift\",\"line\":9")
    let types = ["HomeCoordinator", "SearchCoordinator", "CheckoutCoordinator", "ProfileCoordinator"]
    for flow in 0..<flows {
        let number = 10 + flow
        let type = types[flow % types.count]
        line("\"event\":\"add\",\"id\":\(id(number)),\"type\":\"\(type)\",\"parent\":\(id(2)),\"file\":\"App/Tab.swift\",\"line\":\(20 + flow % 4)")
        line("\"event\":\"bind\",\"id\":\(id(number)),\"screen\":\"\(type)ViewController\"")
        line("\"event\":\"mark\",\"label\":\"step \(flow)\"")
        line("\"event\":\"heartbeat\"")
        line("\"event\":\"dismiss\",\"id\":\(id(number))")
        // Run r leaks flow kind k when (r + k) % (k + 2) == 0: each fingerprint in a known share of the runs.
        let kind = flow % types.count
        let leaks = flow < types.count && (run + kind) % (kind + 2) == 0
        if kind == 1, leaks { continue }
        line("\"event\":\"remove\",\"id\":\(id(number)),\"parent\":\(id(2)),\"file\":\"App/Tab.swift\",\"line\":40")
        if !leaks { line("\"event\":\"deinit\",\"id\":\(id(number))") }
    }
    time += 10
    line("\"event\":\"end\"")
    return text
}

/// `check --summary` over 1,000 generated recordings in a temporary folder: read from disk and judged on every core.
func summaryTime() {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("coordlens-bench-summary-\(getpid())")
    try? FileManager.default.removeItem(at: folder)
    try! FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    var bytes = 0
    let files = (0..<1_000).map { run -> String in
        let path = folder.appendingPathComponent(String(format: "night-%04d.ndjson", run)).path
        let text = summaryRecording(run: run, flows: 150)
        bytes += text.utf8.count
        _ = FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
        return path
    }
    var times: [Double] = []
    var cpu: [Double] = []
    var result: (summary: LeakSummary, unusable: [LeakSummaryReport.Unusable])?
    for _ in 0..<3 {
        let (startWall, startCPU) = (wallSeconds(), processCPUSeconds())
        let summarised = LeakSummary.summarising(count: files.count) { index in
            (files[index], FileManager.default.contents(atPath: files[index]).map { [UInt8]($0) })
        }
        let report = LeakSummaryReport.text(for: summarised.summary)
        times.append(wallSeconds() - startWall)
        cpu.append(processCPUSeconds() - startCPU)
        precondition(summarised.unusable.isEmpty && !report.isEmpty)
        result = summarised
    }
    let summary = result!.summary
    let groups = summary.groups.map { "\($0.fingerprint.type) in \($0.runs)" }.joined(separator: ", ")
    print(
        String(
            format:
                "check --summary of 1,000 recordings (%.1f MB, %d sessions): median %.3f s wall (min %.3f, max %.3f), %.3f s CPU on all cores, over 3 runs; %d groups (%@), %d retained",
            Double(bytes) / 1e6, summary.sessions, median(times), times.min()!, times.max()!, median(cpu),
            summary.groups.count, groups, summary.retained))
}
