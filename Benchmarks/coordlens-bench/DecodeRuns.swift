// Decode + apply, one run per process. `make bench-compare` builds this file into BASE's sources too (as it does
// InstructionCounts.swift), so both trees' runs are measured by the same code; it uses only what both have.
import CoordinatorLens
import Foundation

/// The runs behind the decode+apply figures, each in a fresh process: back to back in one process, a run starts on
/// the heap the run before left, and whether glibc's malloc gave that memory back to the system (to be faulted in
/// again) or kept it depends on thresholds it raises after the largest block freed so far, not on the run's own work.
/// A user's `coordlens check` reads one file in a fresh process; so does each run here.
enum DecodeRun: String {
    /// Lines split and decoded on the calling thread, each record applied: that thread's CPU time.
    case oneThread = "one-thread"
    /// As the command line reads a file: 1 MiB chunks through `StreamReader`, its second thread decoding; wall time
    /// and the process's CPU time.
    case reader
    /// `reader` with the second thread turned off.
    case readerOneThread = "reader-one-thread"

    /// Events per second, and the CPU seconds it took (of the measuring thread, or of the whole process for readers).
    func measure(_ bytes: [UInt8], events count: Int) -> (rate: Double, cpu: Double) {
        switch self {
        case .oneThread:
            let start = nanos()
            let tree = decodeAndApply(bytes)
            let seconds = Double(nanos() - start) / 1e9
            precondition(tree?.eventCount == count && tree?.diagnostics.isEmpty == true, "bench file did not decode cleanly")
            return (Double(count) / seconds, seconds)
        case .reader, .readerOneThread:
            let start = wallNanos()
            let cpuStart = processCPUTime()
            var reader = StreamReader()
            if self == .readerOneThread { reader.concurrentRegionBytes = .max }
            var tree: SessionTree?
            func take(_ item: StreamReader.Item, _: UnsafeBufferPointer<UInt8>) {
                switch item {
                case .session(let header, _): tree = SessionTree(header: header)
                case .record(let record, _): tree?.apply(record)
                case .malformed(let diagnostic, _), .overlong(let diagnostic, _): tree?.report(diagnostic)
                case .inventedSession: break
                }
            }
            bytes.withUnsafeBytes { raw in
                var offset = 0
                while offset < raw.count {
                    let end = min(offset + (1 << 20), raw.count)
                    reader.consume(UnsafeRawBufferPointer(rebasing: raw[offset..<end]), take)
                    offset = end
                }
                reader.finish(take)
            }
            let seconds = Double(wallNanos() - start) / 1e9
            precondition(tree?.eventCount == count && tree?.diagnostics.isEmpty == true, "bench file did not read cleanly")
            return (Double(count) / seconds, processCPUTime() - cpuStart)
        }
    }
}

/// `bytes` split and decoded on this thread, each record applied to its session's tree: what the one-thread figures
/// time and `decode.apply` counts.
func decodeAndApply(_ bytes: [UInt8]) -> SessionTree? {
    var tree: SessionTree?
    var splitter = LineSplitter()
    var strings = StringInterner()
    bytes.withUnsafeBytes { raw in
        splitter.feed(raw) { line, number in
            switch EventDecoder.decode(line, lineNumber: number, strings: &strings) {
            case .session(let header, _): tree = SessionTree(header: header)
            case .record(let record): tree?.apply(record)
            case .malformed(let diagnostic): tree?.report(diagnostic)
            case .blank: break
            }
        }
    }
    return tree
}

/// CPU seconds of the whole process, every thread.
func processCPUTime() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
}

/// The decode+apply figures of record, each run in a fresh process: as the command line reads a file (two threads, and
/// one in turn) and on one thread; with `sitesEverywhere`, only the latter on a file with a call site on every line.
func decodeFigures(sitesEverywhere: Bool = false) throws {
    let count = 1_000_000
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("coordlens-bench-decode-\(getpid()).ndjson").path
    try Data(generatedRecording(events: count, sitesEverywhere: sitesEverywhere)).write(to: URL(fileURLWithPath: path))
    defer { try? FileManager.default.removeItem(atPath: path) }
    let megabytes = Double((try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0) / 1e6
    let floor = lineCountFloor(path)
    if !sitesEverywhere {
        var two: [(rate: Double, cpu: Double)] = []
        var one: [(rate: Double, cpu: Double)] = []
        for _ in 0..<5 {
            two += decodeRunsInFreshProcesses(.reader, path: path, events: count, runs: 1)
            one += decodeRunsInFreshProcesses(.readerOneThread, path: path, events: count, runs: 1)
        }
        let rates = two.map(\.rate)
        print(
            String(
                format:
                    "decode+apply as the command line reads a file (1 MiB chunks, the reader's second thread decoding), a fresh process per run: median %.2f M events/s wall (min %.2f, max %.2f), %.3f s CPU of both threads; one thread, in turn: %.2f M events/s wall, %.3f s CPU; 5 runs each of a %.0f MB, %d-event file; wc -l of the same file %.0f M lines/s; was 2.0 M/s  %@",
                median(rates) / 1e6, rates.min()! / 1e6, rates.max()! / 1e6, median(two.map(\.cpu)), median(one.map(\.rate)) / 1e6,
                median(one.map(\.cpu)), megabytes, count, Double(count) / floor / 1e6,
                targetNote(median(rates), 5e6, "≥ 5 M events/s", lowerIsBetter: false)))
    }
    let rates = decodeRunsInFreshProcesses(.oneThread, path: path, events: count).map(\.rate)
    print(
        String(
            format: "decode+apply on one thread" + (sitesEverywhere ? ", a call site on every event" : "")
                + ", a fresh process per run, its CPU time: median %.2f M events/s (min %.2f, max %.2f) over 5 runs of a %.0f MB, %d-event file; wc -l of the same file %.0f M lines/s; was %@  [no target of its own]",
            median(rates) / 1e6, rates.min()! / 1e6, rates.max()! / 1e6, megabytes, count, Double(count) / floor / 1e6,
            sitesEverywhere ? "(not measured)" : "2.0 M/s"))
}

/// `decode-figures`: `decodeFigures()` alone, for `make bench-compare` to run in BASE's build of this file.
func runDecodeFiguresCommand() throws {
    guard CommandLine.arguments.count == 2, CommandLine.arguments[1] == "decode-figures" else { return }
    try decodeFigures()
    exit(0)
}

/// `decode-figures`, or `decode-run KIND PATH EVENTS OUT`: one run of `KIND` on the recording at `PATH`, its rate and CPU seconds written
/// to `OUT` (the child's output stays free for errors).
func runDecodeCommand() throws {
    let arguments = CommandLine.arguments
    try runDecodeFiguresCommand()
    guard arguments.count == 6, arguments[1] == "decode-run", let kind = DecodeRun(rawValue: arguments[2]), let count = Int(arguments[4])
    else { return }
    let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: arguments[3])))
    let (rate, cpu) = kind.measure(bytes, events: count)
    try "\(rate) \(cpu)\n".write(toFile: arguments[5], atomically: true, encoding: .utf8)
    exit(0)
}

/// `runs` runs of `kind` on the recording at `path`, each in a fresh process of this binary.
func decodeRunsInFreshProcesses(_ kind: DecodeRun, path: String, events count: Int, runs: Int = 5) -> [(rate: Double, cpu: Double)] {
    let out = FileManager.default.temporaryDirectory.appendingPathComponent("coordlens-bench-run-\(getpid()).txt").path
    defer { try? FileManager.default.removeItem(atPath: out) }
    return (0..<runs).map { _ in
        let child = runProcess([CommandLine.arguments[0], "decode-run", kind.rawValue, path, "\(count)", out])
        precondition(child.status == 0, "decode-run \(kind.rawValue) failed")
        let written = (try? String(contentsOfFile: out, encoding: .utf8)) ?? ""
        let fields = written.split(whereSeparator: \.isWhitespace).compactMap { Double($0) }
        precondition(fields.count == 2, "decode-run \(kind.rawValue) wrote no figures")
        return (fields[0], fields[1])
    }
}
