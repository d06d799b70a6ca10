// The figures beyond the hook: the decoder against Foundation on the same file, `check` as a
// whole process on a million events, and a diff of two million-coordinator runs.
import CoordinatorLens
import Foundation

/// The decoder against `JSONSerialization` on the same lines, in turn, so the ratio holds when the machine drifts.
/// Foundation only parses each line into a dictionary; the decoder also types every field into an `EventRecord`.
func decoderVersusFoundation(lines count: Int = 200_000) {
    let bytes = generatedRecording(events: count)
    var ours: [Double] = []
    var foundation: [Double] = []
    var ratios: [Double] = []
    for _ in 0..<3 {
        var decoded = 0
        let start = nanos()
        var splitter = LineSplitter()
        var strings = StringInterner()
        bytes.withUnsafeBytes { raw in
            splitter.feed(raw) { line, number in
                if case .record = EventDecoder.decode(line, lineNumber: number, strings: &strings) { decoded += 1 }
            }
        }
        let decoderSeconds = Double(nanos() - start) / 1e9
        var parsed = 0
        let foundationStart = nanos()
        var lineSplitter = LineSplitter()
        bytes.withUnsafeBytes { raw in
            lineSplitter.feed(raw) { line, _ in
                let data = Data(buffer: line)
                if (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] != nil { parsed += 1 }
            }
        }
        let foundationSeconds = Double(nanos() - foundationStart) / 1e9
        precondition(decoded == count && parsed == count + 1, "both readers must read every line")
        ours.append(Double(count) / decoderSeconds)
        foundation.append(Double(count) / foundationSeconds)
        ratios.append(foundationSeconds / decoderSeconds)
    }
    print(
        String(
            format:
                "decoder vs Foundation's JSONSerialization on the same %d lines, in turn: %.2f M vs %.2f M lines/s, decoder %.1f× faster (median of 3 pairs)",
            count, median(ours) / 1e6, median(foundation) / 1e6, median(ratios)))
}

/// What `coordlens check` does with a file, in this process: read it in 1 MiB chunks keeping only each session's
/// tree (its judging point is the end), judge, write the text report. `check-child PATH` runs it alone.
func checkChild(_ path: String) throws {
    let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
    var recording = Recording(keeping: .treeAtEnd)
    while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {
        chunk.withUnsafeBytes { recording.consume($0) }
    }
    recording.finish()
    let checks = try recording.sessions.map { SessionCheck(source: path, snapshot: try $0.snapshot(), atEnd: true) }
    let report = LeakReport.text(for: CheckResult(grace: VerdictRules.defaultGrace, sessions: checks))
    precondition(report.utf8.count > 1_000_000, "a million events with leaks make a long report")
}

/// `write-recording PATH COUNT`: the generated recording, written by a process of its own.
func writeRecording(_ path: String, events: Int) throws {
    try Data(generatedRecording(events: events)).write(to: URL(fileURLWithPath: path))
}

/// `check` on a million-event recording as a whole process: this bench binary again in `check-child` mode, each run
/// measured by the system through wait4 (user + system CPU time, peak resident memory). A child's peak counts the
/// memory its parent had when it was started, so this runs while the bench is still small and says how small.
func checkAsAProcess() throws {
    let count = 1_000_000
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("coordlens-bench-check-\(getpid()).ndjson").path
    defer { try? FileManager.default.removeItem(atPath: path) }
    precondition(runChild(["write-recording", path, "\(count)"]).status == 0, "write-recording failed")
    let parent = peakMegabytes()
    var seconds: [Double] = []
    var megabytes: [Double] = []
    for _ in 0..<3 {
        let run = runChild(["check-child", path])
        precondition(run.status == 0, "check-child failed")
        seconds.append(run.seconds)
        megabytes.append(run.megabytes)
    }
    let floor = lineCountFloor(path)
    print(
        String(
            format:
                "check of a %d-event recording as a whole process (read in chunks, tree kept, judged, text report): median %.2f s CPU (min %.2f, max %.2f), peak %.0f MB (the bench was at %.0f MB when it started it); wc -l of the same file %.3f s CPU (%.0f× less); was 0.99 s  %@ %@",
            count, median(seconds), seconds.min()!, seconds.max()!, median(megabytes), parent, floor, median(seconds) / floor,
            targetNote(median(seconds), 0.6, "< 0.6 s"), targetNote(median(megabytes), 150, "< 150 MB")))
}

/// Runs this binary with `arguments` and waits for it: its exit status, CPU seconds (user + system) and peak
/// resident memory, as the system accounts them for that child alone.
func runChild(_ arguments: [String]) -> (status: Int32, seconds: Double, megabytes: Double) {
    runProcess([CommandLine.arguments[0]] + arguments)
}

/// The floor of reading a file at all, which every decoding figure stands beside: `wc -l` on it, as a
/// process of its own, median CPU seconds of three runs.
func lineCountFloor(_ path: String) -> Double {
    median((0..<3).map { _ in runProcess(["/bin/sh", "-c", #"exec wc -l "$0" >/dev/null"#, path]).seconds })
}

/// `runChild` for any program: `command[0]` is its path.
func runProcess(_ command: [String]) -> (status: Int32, seconds: Double, megabytes: Double) {
    let argv = command.map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    var pid = pid_t()
    guard posix_spawn(&pid, argv[0]!, nil, nil, argv, environ) == 0 else { return (-1, 0, 0) }
    var status: Int32 = 0
    var usage = rusage()
    while wait4(pid, &status, 0, &usage) < 0, errno == EINTR {}
    let seconds =
        Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
        + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    #if os(Linux)
    let megabytes = Double(usage.ru_maxrss) / 1024  // kilobytes here
    #else
    let megabytes = Double(usage.ru_maxrss) / 1024 / 1024  // bytes on Darwin
    #endif
    return (status, seconds, megabytes)
}

/// Diffing two runs of a million coordinators each, with other ids and other leaks on each side.
func diffOfMillions() {
    let a = diffSnapshot(count: 1_000_000, firstID: 0, leakEvery: 20)
    let b = diffSnapshot(count: 1_000_000, firstID: 10_000_000, leakEvery: 25)
    var times: [Double] = []
    var summary = ""
    // Two runs, not more: building the two million-coordinator sides is most of this figure's time.
    for _ in 0..<2 {
        let start = nanos()
        let diff = TreeDiff(a, b)
        times.append(Double(nanos() - start) / 1e9)
        summary = TreeDiffReport.summaryLine(for: diff)
    }
    print(
        String(
            format: "diff of two 1,000,000-coordinator runs: median %.3f s (min %.3f, max %.3f) over 2 runs; %@  %@",
            median(times), times.min()!, times.max()!, String(summary.prefix(60)), targetNote(median(times), 2, "< 2 s")))
}

/// `[target …: met]`, or by how much a figure falls short of it, for the bench lines.
func targetNote(_ value: Double, _ target: Double, _ text: String, lowerIsBetter: Bool = true) -> String {
    let met = lowerIsBetter ? value <= target : value >= target
    let factor = lowerIsBetter ? value / target : target / value
    return met ? "[target \(text): met]" : String(format: "[target %@: short by %.2f×]", text, factor)
}
