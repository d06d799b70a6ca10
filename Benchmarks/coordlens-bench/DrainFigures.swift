import CoordinatorTrace
import Foundation

/// How fast the hook's writer empties a burst into its sink, and whether a startup burst with the default options
/// loses anything. One million adds queued from one thread with room for all of them, timed from the first add until
/// the sink holds the last (a file: written; a loopback `coordlens listen --record`: acknowledged); the same for one
/// million dismissals of coordinators added before, whose calls cost the caller less (so the writer is what is timed);
/// then 100,000 adds from 8 threads at once with `TraceOptions()` into a live `listen`. `only`: "file" or "listen".
func drainFigures(only: String? = nil) throws {
    let count = 1_000_000
    let roomy = TraceOptions(bufferCapacity: 1 << 21, backlogCapacity: 1 << 21, endTimeout: 60)
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("coordlens-bench-drain-\(getpid())").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    func report(_ what: String, _ figure: BurstFigure) {
        print(
            String(
                format: "writer drain, %@: %.2f M events/s (%.0f ms from the first call until the sink held the last; %d dropped)  [target ≥ 1 M/s]",
                what, Double(count) / figure.seconds / 1e6, figure.seconds * 1e3, figure.dropped))
    }
    if only != "listen" {
        report("1,000,000 adds into a file", burst(count, threads: 1, into: .file(folder + "/adds.ndjson"), options: roomy))
        report(
            "1,000,000 dismissals into a file",
            burst(count, threads: 1, into: .file(folder + "/dismissals.ndjson"), options: roomy, dismissingAddedOnes: true))
    }
    guard only != "file" else { return }
    let listen = try BenchListen(record: folder + "/listen.ndjson")
    defer { listen.stop() }
    report("1,000,000 adds into a loopback coordlens listen --record (acknowledged)", burst(count, threads: 1, into: .tcp(port: listen.port), options: roomy))
    guard only == nil else { return }
    let startup = burst(100_000, threads: 8, into: .tcp(port: listen.port), options: TraceOptions())
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
    tracer.end()
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
        _ = FileManager.default.createFile(atPath: log, contents: nil)
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
