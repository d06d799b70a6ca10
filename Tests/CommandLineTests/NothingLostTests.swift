import CoordinatorLens
@_spi(Testing) import CoordinatorTrace
import Foundation
import TestSupport
import Testing

/// Every fault a test can produce, with a real `coordlens listen` process and the hook in this process over real
/// sockets: the hook's own count of events equals what the recording holds plus what `dropped` lines report.
@Suite(.serialized) struct NothingLostTests {
    private func temporaryDirectory() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("coordlens-lost-\(UUID())").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// A port that was free a moment ago, for a `listen` that must come back on the same one.
    private func freePort() throws -> Int {
        let proxy = try TCPProxy(to: 1)
        defer { proxy.stop() }
        return proxy.port
    }

    private func restartMidStream(_ signal: Int32) throws {
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/rec.ndjson"
        let port = try freePort()
        let first = try ListenProcess(["--record", path], port: port)
        let tracer = Tracer()
        tracer.start(app: "Faults", sink: .tcp(port: port), options: TraceOptions(bufferCapacity: 1 << 20, backlogCapacity: 1 << 20, endTimeout: 45))
        let run = try #require(tracer.runID)
        let streamer = HookStreamer(tracer, rounds: 60, perRound: 300, pause: 0.01)
        // The fault comes mid-stream: once listen has the run live.
        #expect(first.waitForLine(timeout: 30) { $0.contains("[live]") } != nil, "\(first.lines)")
        #expect(first.send(signal, exitWithin: 10))
        // clock: the outage is the fault: for this long nothing listens and the hook keeps its backlog.
        Thread.sleep(forTimeInterval: 0.3)
        // The first process object lives to the end of the test: freeing it closes its pipe, and Foundation on Linux
        // may close that descriptor twice, which can be the hook's socket by then.
        let listen = try ListenProcess(["--record", path], port: port)
        defer { withExtendedLifetime(first) {} }
        streamer.wait()
        tracer.end()
        #expect(listen.waitForLine(timeout: 20) { $0.contains("[ended]") } != nil, "\(listen.lines)")
        #expect(listen.send(SIGTERM, exitWithin: 10))
        let dropped = try HookAccounting.expectEverythingAccounted(tracer, run: run, path: path, cutLines: signal == SIGKILL ? 1 : 0)
        #expect(dropped == 0, "a hook with room for its backlog drops nothing across a restart")
    }

    // end() may wait long: on a loaded 2-core machine (the whole suite in parallel) a restarted debug `listen` took
    // over 19 s to acknowledge the resent lines, and the hook then counted 707 of them dropped (exactly, but dropped).
    @Test(.timeLimit(.minutes(2)))
    func sigtermMidStreamAndARestartLoseNothing() throws {
        try restartMidStream(SIGTERM)
    }

    @Test(.timeLimit(.minutes(2)))
    func killMidStreamAndARestartLoseNothing() throws {
        try restartMidStream(SIGKILL)
    }

    /// The app starts first and streams for a while before anybody listens: the hook keeps its backlog, retries, and
    /// the late `listen` gets the whole run.
    @Test(.timeLimit(.minutes(2)))
    func anInspectorThatStartsLateGetsEverything() throws {
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/rec.ndjson"
        let port = try freePort()
        let tracer = Tracer()
        tracer.start(app: "Faults", sink: .tcp(port: port), options: TraceOptions(bufferCapacity: 1 << 20, backlogCapacity: 1 << 20, endTimeout: 45))
        let run = try #require(tracer.runID)
        let streamer = HookStreamer(tracer, rounds: 60, perRound: 300, pause: 0.01)
        // clock: the time before anybody listens is the fault: the hook streams into its backlog and retries meanwhile.
        Thread.sleep(forTimeInterval: 0.4)
        let listen = try ListenProcess(["--record", path], port: port)
        streamer.wait()
        tracer.end()
        #expect(listen.waitForLine(timeout: 20) { $0.contains("[ended]") } != nil, "\(listen.lines)")
        #expect(listen.send(SIGTERM, exitWithin: 10))
        let dropped = try HookAccounting.expectEverythingAccounted(tracer, run: run, path: path)
        #expect(dropped == 0, "a backlog with room keeps what was sent before the inspector started")
    }

    /// The inspector goes away mid-session and is back only after `end()` began: an inspector the hook reached before
    /// is tried until `end()`'s deadline, not given up after three empty tries as one never reached is, so the new
    /// `listen` gets every line the first one did not.
    @Test(.timeLimit(.minutes(2)))
    func anInspectorBackOnlyAfterTheEndBeganGetsEverything() throws {
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/rec.ndjson"
        let port = try freePort()
        let first = try ListenProcess(["--record", path], port: port)
        defer { withExtendedLifetime(first) {} }
        let tracer = Tracer()
        tracer.start(app: "Faults", sink: .tcp(port: port), options: TraceOptions(endTimeout: 20))
        let run = try #require(tracer.runID)
        HookStreamer(tracer, rounds: 5, perRound: 100, pause: 0.01).wait()
        _ = tracer.flush()
        #expect(first.send(SIGTERM, exitWithin: 10))
        HookStreamer(tracer, rounds: 5, perRound: 100, pause: 0).wait()
        let ended = DispatchSemaphore(value: 0)
        Thread {
            tracer.end()
            ended.signal()
        }.start()
        // clock: the inspector is back only after end() has tried more than three times: end()'s retries are timed.
        Thread.sleep(forTimeInterval: 0.5)
        let second = try ListenProcess(["--record", path], port: port)
        #expect(ended.wait(timeout: .now() + 30) == .success, "end() returned")
        #expect(second.waitForLine(timeout: 20) { $0.contains("[ended]") } != nil, "\(second.lines)")
        #expect(second.send(SIGTERM, exitWithin: 10))
        let dropped = try HookAccounting.expectEverythingAccounted(tracer, run: run, path: path)
        #expect(dropped == 0, "the lines waiting when end() began reached the inspector that came back")
    }

    /// A startup burst: 100,000 coordinators added from 8 threads at once into a live `listen`, with the default queue
    /// and backlog: the queue holds the burst, the writer encodes only as fast as the connection takes lines, and
    /// nothing is dropped. (`endTimeout` is raised only because a debug `listen` on a loaded machine takes longer than
    /// the default 2 s to record 100,000 lines after the burst.)
    @Test(.timeLimit(.minutes(2)))
    func aBurstOfAHundredThousandAddsFromEightThreadsLosesNothing() throws {
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/rec.ndjson"
        let listen = try ListenProcess(["--record", path])
        let tracer = Tracer()
        tracer.start(app: "Burst", sink: .tcp(port: listen.port), options: TraceOptions(endTimeout: 60))
        let run = try #require(tracer.runID)
        let root = HookStreamer.Node()
        tracer.added(root, to: nil)
        #expect(tracer.flush(timeout: 10))
        let children = (0..<8).map { _ in (0..<12_500).map { _ in HookStreamer.Node() } }
        let done = DispatchGroup()
        for batch in children {
            done.enter()
            Thread {
                for child in batch { tracer.added(child, to: root) }
                done.leave()
            }.start()
        }
        done.wait()
        tracer.end()
        #expect(listen.waitForLine(timeout: 30) { $0.contains("[ended]") } != nil, "\(listen.lines)")
        #expect(listen.send(SIGTERM, exitWithin: 10))
        let counts = try #require(tracer.finalCounts(timeout: 30))
        #expect(counts.dropped == 0 && counts.unconfirmed == 0, "\(counts)")
        #expect(try HookAccounting.expectEverythingAccounted(tracer, run: run, path: path) == 0)
        withExtendedLifetime(children) {}
    }

    @Test(.timeLimit(.minutes(2)))
    func cutConnectionsLoseNothing() throws {
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/rec.ndjson"
        let listen = try ListenProcess(["--record", path])
        let proxy = try TCPProxy(to: listen.port)
        defer { proxy.stop() }
        let tracer = Tracer()
        tracer.start(app: "Faults", sink: .tcp(port: proxy.port), options: TraceOptions(bufferCapacity: 1 << 20, backlogCapacity: 1 << 20, endTimeout: 45))
        let run = try #require(tracer.runID)
        let streamer = HookStreamer(tracer, rounds: 60, perRound: 300, pause: 0.01)
        for _ in 0..<3 {
            // clock: the cuts are spread over the stream, which no event marks the middle of.
            Thread.sleep(forTimeInterval: 0.2)
            proxy.cut()
        }
        streamer.wait()
        tracer.end()
        #expect(listen.waitForLine(timeout: 20) { $0.contains("[ended]") } != nil, "\(listen.lines)")
        #expect(listen.send(SIGTERM, exitWithin: 10))
        let dropped = try HookAccounting.expectEverythingAccounted(tracer, run: run, path: path)
        #expect(dropped == 0)
    }

    /// An inspector that reads at 1 MB/s, eight threads streaming as fast as they can with the default limits: the
    /// hook drops, and `end()` gives up, but every event is recorded, counted dropped, or counted unconfirmed, and the
    /// recording holds whole lines only.
    @Test(.timeLimit(.minutes(2)))
    func aSlowReaderLosesNothingUncounted() throws {
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/rec.ndjson"
        let listen = try ListenProcess(["--record", path])
        let proxy = try TCPProxy(to: listen.port, bytesPerSecond: 1 << 20)
        defer { proxy.stop() }
        let tracer = Tracer()
        // Time enough for the last lines through 1 MB/s on a loaded machine: a shorter end gives up sooner, and its
        // last dropped line may then not get through, which the hook's own count still says.
        tracer.start(app: "Faults", sink: .tcp(port: proxy.port), options: TraceOptions(endTimeout: 4))
        let run = try #require(tracer.runID)
        HookStreamer(tracer, threads: 8, rounds: 20, perRound: 1_000, pause: 0).wait()
        tracer.end()
        #expect(proxy.waitUntilIdle(seconds: 60))
        let counts = try #require(tracer.finalCounts(timeout: 30))
        // The end goes out behind what is in flight; when that cannot drain within the end's reserve, the hook says
        // so by its unconfirmed count (and the recording lacks its end, which `check` reports).
        if counts.unconfirmed == 0 {
            #expect(listen.waitForLine(timeout: 20) { $0.contains("[ended]") } != nil, "\(counts) \(listen.lines)")
        }
        #expect(listen.send(SIGTERM, exitWithin: 10))
        try HookAccounting.expectEverythingAccounted(tracer, run: run, path: path)
        #expect(counts.dropped > 0, "a reader this slow makes the hook drop: \(counts)")
    }

    /// A slow inspector behind a relay that drops what it still holds once the app has gone (the probe's proxy, slower,
    /// so the socket buffers' worth in flight outlasts `end()`'s wait): `end()` stops waiting with lines unconfirmed, counts them apart, and the recording plus the
    /// dropped counts plus the unconfirmed lines it lacks add up to the hook's events exactly.
    @Test(.timeLimit(.minutes(2)))
    func linesASlowRelayDropsAreCountedAsUnconfirmed() throws {
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/rec.ndjson"
        let listen = try ListenProcess(["--record", path])
        let proxy = try TCPProxy(to: listen.port, bytesPerSecond: 64 << 10)
        defer { proxy.stop() }
        let tracer = Tracer()
        tracer.start(app: "Faults", sink: .tcp(port: proxy.port), options: TraceOptions(endTimeout: 1))
        let run = try #require(tracer.runID)
        HookStreamer(tracer, threads: 8, rounds: 20, perRound: 1_000, pause: 0).wait()
        tracer.end()
        // `end()` returns within its budget; the app is gone once its writer is (a starved one may still be at work).
        let counts = try #require(tracer.finalCounts(timeout: 30))
        // The relay goes down with the app: what it had not passed on yet is gone.
        proxy.cut()
        #expect(proxy.waitUntilIdle(seconds: 20))
        #expect(listen.waitForLine(timeout: 20) { $0.contains("[disconnected]") || $0.contains("[ended]") } != nil, "\(listen.lines)")
        #expect(listen.send(SIGTERM, exitWithin: 10))
        #expect(counts.unconfirmed > 0, "a relay this slow leaves lines unconfirmed at the end: \(counts)")
        try HookAccounting.expectEverythingAccounted(tracer, run: run, path: path)
    }
}
