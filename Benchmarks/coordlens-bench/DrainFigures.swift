import CoordinatorTrace
import Foundation

/// How fast the hook's writer empties a burst into its sink, and whether a startup burst with the default options
/// loses anything: one million adds queued from one thread with room for all of them, timed from the first add until
/// the sink holds the last (a file: written; a loopback `coordlens listen --record`: acknowledged), then 100,000 adds
/// from 8 threads at once with `TraceOptions()` into a live `listen`.
func drainFigures(fileOnly: Bool = false, listenOnly: Bool = false) throws {
    let count = 1_000_000
    let roomy = TraceOptions(bufferCapacity: 1 << 21, backlogCapacity: 1 << 21, endTimeout: 60)
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("coordlens-bench-drain-\(getpid())").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }

    if listenOnly {
        let listen = try BenchListen(record: folder + "/listen.ndjson")
        let toListen = burst(count, threads: 1, into: .tcp(port: listen.port), options: roomy)
        listen.stop()
        print(String(format: "writer drain into listen: %.2f M events/s, %.0f ms", Double(toListen.events) / toListen.seconds / 1e6, toListen.seconds * 1e3))
        return
    }
    let toFile = burst(count, threads: 1, into: .file(folder + "/burst.ndjson"), options: roomy)
    if fileOnly {
        print(String(format: "writer drain into a file: %.2f M events/s, %.0f ms", Double(count) / toFile.seconds / 1e6, toFile.seconds * 1e3))
        let dismissals = burst(count, threads: 1, into: .file(folder + "/burst.ndjson"), options: roomy, dismissingAddedOnes: true)
        print(String(format: "dismissals into a file: %.2f M events/s, %.0f ms", Double(count) / dismissals.seconds / 1e6, dismissals.seconds * 1e3))
        return
    }
    let listen = try BenchListen(record: folder + "/listen.ndjson")
    let toListen = burst(count, threads: 1, into: .tcp(port: listen.port), options: roomy)
    let startup = burst(100_000, threads: 8, into: .tcp(port: listen.port), options: TraceOptions())
    listen.stop()
    for (name, figure) in [("a file", toFile), ("a loopback coordlens listen --record (acknowledged)", toListen)] {
        print(
            String(
                format:
                    "writer drain into %@: %.2f M events/s (%d adds from one thread, %.0f ms from the first add until the sink held the last; %d dropped)  [target ≥ 1 M/s]",
                name, Double(figure.events) / figure.seconds / 1e6, count, figure.seconds * 1e3, figure.dropped))
    }
    print(
        String(
            format:
                "startup burst: 100,000 adds from 8 threads with TraceOptions() into a live coordlens listen: %d events, %d dropped, %d unconfirmed, all held %.0f ms after the first add  [target: nothing dropped]",
            startup.events, startup.dropped, startup.unconfirmed, startup.seconds * 1e3))
}

private struct BurstFigure {
    var events: Int
    var dropped: Int
    var unconfirmed: Int
    var seconds: Double
}

/// `count` adds under one root from `threads` threads as fast as they go, then `end()`, which returns once the sink
/// holds everything (or gives up, counting what it lost).
private func burst(
    _ count: Int, threads: Int, into sink: some TraceSink, options: TraceOptions, dismissingAddedOnes: Bool = false
) -> BurstFigure {
    let tracer = Tracer()
    var options = options
    if dismissingAddedOnes {
        // Dismissed and alive: end() would wait out their grace and look for their holders, which is not the writer.
        options.grace = 0
        options.retainerSearch.isEnabled = false
    }
    tracer.start(app: "Burst", sink: sink, options: options)
    let root = BenchCoordinator()
    tracer.added(root, to: nil)
    let perThread = count / threads
    let children = (0..<threads).map { _ in (0..<perThread).map { _ in BenchCoordinator() } }
    if dismissingAddedOnes {
        for batch in children { for child in batch { tracer.added(child, to: root) } }
    }
    tracer.flush(timeout: 60)
    let started = wallNanos()
    let group = DispatchGroup()
    for batch in children {
        group.enter()
        Thread {
            if dismissingAddedOnes {
                for child in batch { tracer.dismissed(child) }
            } else {
                for child in batch { tracer.added(child, to: root) }
            }
            group.leave()
        }.start()
    }
    group.wait()
    let queued = wallNanos()
    tracer.end()
    if ProcessInfo.processInfo.environment["BENCH_PHASES"] != nil {
        print("queued in \(Double(queued - started) / 1e6) ms, ended \(Double(wallNanos() - queued) / 1e6) ms later")
    }
    let seconds = Double(wallNanos() - started) / 1e9
    let counts = tracer.counts
    withExtendedLifetime(children) {}
    return BurstFigure(events: counts?.events ?? 0, dropped: counts?.dropped ?? 0, unconfirmed: counts?.unconfirmed ?? 0, seconds: seconds)
}

/// A release `coordlens listen` from the bench's own folder, on a free loopback port, recording to `record`.
private final class BenchListen {
    let process = Process()
    let port: Int

    init(record: String) throws {
        let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("coordlens")
        let log = record + ".log"
        FileManager.default.createFile(atPath: log, contents: nil)
        process.executableURL = binary
        process.arguments = ["listen", "--port", "0", "--no-http", "--record", record]
        process.standardOutput = FileHandle(forWritingAtPath: log)
        try process.run()
        let deadline = Date(timeIntervalSinceNow: 20)
        while Date() < deadline {
            let text = String(decoding: FileManager.default.contents(atPath: log) ?? Data(), as: UTF8.self)
            if let line = text.split(separator: "\n").first(where: { $0.hasPrefix("coordlens listening on") }),
                let port = Int(line.split(separator: ":").last ?? "")
            {
                self.port = port
                return
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
        process.terminate()
        throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "coordlens listen did not start (is the release coordlens built?)"])
    }

    func stop() {
        process.terminate()
        process.waitUntilExit()
    }
}
