import CoordinatorLens
import CoordinatorLensServer
import Foundation
import TestSupport
import Testing

/// `coordlens listen` as a real process under socket abuse: every resource bounded, every valid session complete.
@Suite(.serialized) struct ListenAbuseTests {
    private func temporaryDirectory() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("coordlens-abuse-\(UUID())").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    private static func session(_ run: String, app: String = "Abuse") -> String {
        #"{"event":"session","v":1,"app":"\#(app)","run":"\#(run)"}"# + "\n"
    }

    /// A root, `children` children under it, then `end`: `children + 2` event lines.
    private static func tree(children: Int, type: String = "Child") -> String {
        var text = #"{"seq":1,"t":0,"event":"add","id":1,"type":"Root"}"# + "\n"
        for id in 2..<(children + 2) {
            text += #"{"seq":\#(id),"t":0.01,"event":"add","id":\#(id),"type":"\#(type)","parent":1}"# + "\n"
        }
        return text + #"{"seq":\#(children + 2),"t":0.02,"event":"end"}"# + "\n"
    }

    private func runConcurrently(_ jobs: [@Sendable () throws -> Void]) -> [any Error] {
        let errors = LockedErrors()
        DispatchQueue.concurrentPerform(iterations: jobs.count) { index in
            do { try jobs[index]() } catch { errors.append(error) }
        }
        return errors.all
    }

    @Test(.timeLimit(.minutes(1)))
    func fiftySessionsAGiantLineGarbageAndResetsKeepMemoryBoundedAndEverySessionComplete() throws {
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let listen = try ListenProcess(["--out", folder, "--record", folder + "/rec.ndjson", "--grace", "0.2"])
        defer { listen.stop() }
        let port = listen.port
        // The page's port is the last thing listen opens: the baseline is taken once it has started whole.
        _ = try #require(listen.pagePort)
        let baseline = try #require(listen.residentMiB)
        let peak = PeakMemory(of: listen)

        var jobs: [@Sendable () throws -> Void] = (0..<50).map { index in
            {
                let connection = try RawConnection(port: port)
                let bytes = Array((Self.session("s\(index)") + Self.tree(children: 20)).utf8)
                if index < 5 {
                    for byte in bytes { try connection.send([byte]) }  // byte by byte
                } else {
                    try connection.send(bytes)
                }
                connection.close()
            }
        }
        jobs.append {
            // 64 MiB without a newline, then the line ends and the session carries on.
            let connection = try RawConnection(port: port)
            try connection.send(Self.session("giant") + #"{"seq":1,"t":0,"event":"add","id":1,"type":"Root"}"# + "\n")
            let block = [UInt8](repeating: UInt8(ascii: "x"), count: 1 << 20)
            for _ in 0..<64 { try connection.send(block) }
            try connection.send("\n" + #"{"seq":2,"t":0.1,"event":"end"}"# + "\n")
            connection.close()
        }
        for index in 0..<10 {
            jobs.append {
                // Gone mid-line, with a reset.
                let connection = try RawConnection(port: port)
                try connection.send(Self.session("cut\(index)") + #"{"seq":1,"t":0,"event":"add","id":1,"type":"Root"}"# + "\n")
                try connection.send(#"{"seq":2,"t":0.1,"event":"add","id":2,"ty"#)
                connection.reset()
            }
        }
        jobs.append {
            // Garbage from the first byte: listen closes a connection whose first line is no session line, so a send
            // after that fails (reset by peer), which is the point, not an error of the test.
            var generator = SystemRandomNumberGenerator()
            let connection = try RawConnection(port: port)
            for _ in 0..<64 {
                guard (try? connection.send((0..<(1 << 16)).map { _ in UInt8.random(in: 0...255, using: &generator) })) != nil else { break }
            }
            connection.close()
        }
        let errors = runConcurrently(jobs)
        #expect(errors.isEmpty, "\(errors)")

        let runs = (0..<50).map { "s\($0)" } + ["giant"]
        for run in runs {
            let shown = listen.waitForLine(timeout: 20) { $0.contains(" \(run.prefix(8)) [ended]") && $0.contains(".svg") }
            #expect(shown != nil, "\(run) ended and drawn")
        }
        // A status line names where a run's picture goes as soon as it ends; the pictures are drawn one at a time
        // after it, and a SIGTERM gives the queue 1.5 s: on a loaded machine 50 of them take longer. Each is waited for.
        let pictures = (0..<50).map { "\(folder)/\(FileName.forRun("s\($0)")).svg" }
        let drawn = waitUntil(seconds: 120) { pictures.allSatisfy { FileManager.default.fileExists(atPath: $0) } }
        #expect(drawn, "\(pictures.filter { !FileManager.default.fileExists(atPath: $0) }.count) pictures not drawn")
        let grown = peak.stop() - baseline
        // Before the limits, the giant line alone was buffered whole: 64 MiB and more.
        #expect(grown < 48, "resident memory grew by \(grown) MiB over \(baseline) MiB")

        #expect(listen.send(SIGTERM, exitWithin: 10))
        let recording = Recording(bytes: try #require(FileManager.default.contents(atPath: folder + "/rec.ndjson")))
        for index in 0..<50 {
            let log = try #require(recording.session(run: "s\(index)"))
            let snapshot = try log.snapshot(grace: 0.2)
            #expect(snapshot.ended && snapshot.nodes.count == 21 && snapshot.warnings.isEmpty, "s\(index) recorded whole")
            let svg = String(decoding: FileManager.default.contents(atPath: "\(folder)/\(FileName.forRun("s\(index)")).svg") ?? Data(), as: UTF8.self)
            #expect(svg.contains(#"id="c21""#), "s\(index) drawn whole")
        }
        #expect(try recording.session(run: "giant")?.snapshot().ended == true)
        for index in 0..<10 {
            #expect(recording.session(run: "cut\(index)")?.entries.count == 1, "cut\(index): the complete line only")
        }
        let unreadable = recording.sessions.flatMap(\.entries).filter { if case .malformed = $0 { true } else { false } }
        #expect(unreadable.isEmpty, "the recording holds only lines that are JSON objects")
    }

    @Test(.timeLimit(.minutes(1)))
    func aSmallSessionsPictureIsNotHeldUpByABigOne() throws {
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let listen = try ListenProcess(["--out", folder])
        defer { listen.stop() }

        // Slow to draw before the limits (minutes: `dot` lays out 3,000 nodes, one labelled with a 1 MB type name),
        // arriving in five parts so that it is redrawn while the small session comes.
        let big = try RawConnection(port: listen.port)
        try big.send(Self.session("big", app: "Big"))
        var lines = [#"{"seq":1,"t":0,"event":"add","id":1,"type":"\#(String(repeating: "Huge", count: 250_000))"}"#]
        for id in 2...3_000 {
            lines.append(#"{"seq":\#(id),"t":0.01,"event":"add","id":\#(id),"type":"Node\#(id % 9)","parent":\#(max(1, id / 3))}"#)
        }
        for part in 0..<5 {
            try big.send(lines[(part * 600)..<((part + 1) * 600)].joined(separator: "\n") + "\n")
            let taken = listen.waitForLine(timeout: 30) { $0.contains(" big [live] \((part + 1) * 600) events,") }
            #expect(taken != nil, "part \(part) taken in: \(listen.lines.suffix(3))")
        }
        // The big session is being drawn now; the small one arrives.
        let small = try RawConnection(port: listen.port)
        try small.send(Self.session("small", app: "Small") + Self.tree(children: 2))
        small.close()
        let sent = Date()
        let smallShown = listen.waitForFile("\(folder)/\(FileName.forRun("small")).svg", timeout: 30)
        let delay = Date().timeIntervalSince(sent)
        #expect(smallShown != nil)
        #expect(listen.lines.contains { $0.hasPrefix("Small") && $0.contains("[ended]") && $0.contains(".svg") }, "\(listen.lines)")
        #expect(delay < 3, "the small picture took \(delay) s")

        try big.send(#"{"seq":3001,"t":0.02,"event":"end"}"# + "\n")
        big.close()
        let bigShown = listen.waitForLine(timeout: 40) { $0.hasPrefix("Big") && $0.contains("[ended]") && $0.contains(".svg") }
        #expect(bigShown?.contains("names cut to 200 characters") == true)
        let svg = listen.waitForFile("\(folder)/\(FileName.forRun("big")).svg", timeout: 40) { $0.contains("more below") } ?? ""
        // 3,000 coordinators with no leak: drawn as the root (its 1 MB name cut) and counted summaries below it.
        #expect(svg.contains(#"id="c1""#))
        #expect(svg.contains("more below"))
        #expect(svg.utf8.count < 8 << 20, "the 1 MB name is not drawn whole")
    }

    @Test(.timeLimit(.minutes(1)))
    func sigtermWritesEveryReceivedLineToTheRecording() throws {
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let listen = try ListenProcess(["--record", folder + "/rec.ndjson"])
        defer { listen.stop() }
        let connection = try RawConnection(port: listen.port)
        try connection.send(Self.session("flushed"))
        var text = ""
        for seq in 1...20_000 { text += #"{"seq":\#(seq),"t":0,"event":"mark","label":"m\#(seq)"}"# + "\n" }
        try connection.send(text)
        let received = listen.waitForLine(timeout: 20) { $0.contains("20000 events") }
        #expect(received != nil)
        let started = Date()
        #expect(listen.send(SIGTERM, exitWithin: 5))
        #expect(Date().timeIntervalSince(started) < 3, "listen stops within about 2 s")
        #expect(listen.process.terminationStatus == 0)
        let recording = Recording(bytes: try #require(FileManager.default.contents(atPath: folder + "/rec.ndjson")))
        let log = try #require(recording.session(run: "flushed"))
        #expect(log.entries.count == 20_000)
        #expect(try log.snapshot().marks.last?.label == "m20000")
        withExtendedLifetime(connection) {}
    }

    @Test(.timeLimit(.minutes(1)))
    func withFewDescriptorsListenTurnsConnectionsAwayWithoutSpinningAndKeepsDrawing() throws {
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let listen = try ListenProcess(["--out", folder, "--grace", "0.2"], descriptors: 96)
        defer { listen.stop() }
        var connections: [RawConnection] = []
        for index in 0..<120 {
            guard let connection = try? RawConnection(port: listen.port) else { break }
            try? connection.send(Self.session("idle\(index)"))
            connections.append(connection)
        }
        // 96 less the reserve of 32 leaves 64: a quarter (16) for page connections, 48 for hooks.
        let refused = listen.waitForLine(timeout: 10) { $0.contains("connection limit of 48 reached") }
        #expect(refused != nil)
        let before = try #require(listen.cpuSeconds)
        // clock: the CPU time of one idle second is what is measured: a listen that spins would burn it.
        Thread.sleep(forTimeInterval: 1)
        let used = try #require(listen.cpuSeconds) - before
        #expect(used < 0.5, "listen used \(used) CPU seconds in one idle second")

        // An open session still ends and is drawn: a descriptor is left for the picture.
        try connections[0].send(Self.tree(children: 3))
        let drawn = listen.waitForLine(timeout: 10) { $0.contains(" idle0 [ended]") && $0.contains(".svg") }
        #expect(drawn != nil)
        #expect(listen.waitForFile("\(folder)/\(FileName.forRun("idle0")).svg", timeout: 10) { $0.contains("</svg>") } != nil)
        #expect(listen.lines.allSatisfy { !$0.contains("picture not written") })

        connections.forEach { $0.close() }
        connections.removeAll()
        let again = listen.waitForLine(timeout: 10) { $0.contains("accepting connections again") }
        #expect(again != nil)
        let late = try RawConnection(port: listen.port)
        try late.send(Self.session("late") + Self.tree(children: 1))
        late.close()
        #expect(listen.waitForLine(timeout: 10) { $0.contains(" late [ended]") && $0.contains(".svg") } != nil)
        #expect(listen.waitForFile("\(folder)/\(FileName.forRun("late")).svg", timeout: 10) { $0.contains("</svg>") } != nil)
    }

    @Test(.timeLimit(.minutes(1)))
    func outOfDescriptorsAcceptBacksOffSaysSoOnceAndRecovers() throws {
        let listen = try ListenProcess(["--max-connections", "1000"], descriptors: 64)
        defer { listen.stop() }
        var connections: [RawConnection] = []
        for index in 0..<100 {
            guard let connection = try? RawConnection(port: listen.port) else { break }
            try? connection.send(Self.session("crowd\(index)"))
            connections.append(connection)
        }
        let failing = listen.waitForLine(timeout: 10) { $0.contains("cannot accept connections") }
        #expect(failing != nil)
        let before = try #require(listen.cpuSeconds)
        // NIO's own backoff spun from its first retry on, a core from then until a descriptor freed (1.00 CPU s a second).
        // clock: the CPU time of three seconds out of descriptors is what is measured, retries included (one a second).
        Thread.sleep(forTimeInterval: 3)
        let used = try #require(listen.cpuSeconds) - before
        #expect(used < 0.5, "listen used \(used) CPU seconds in three seconds out of descriptors")
        #expect(listen.lines.filter { $0.contains("cannot accept connections") }.count == 1)

        connections.forEach { $0.close() }
        connections.removeAll()
        // No line says accepting works again: the late connection waits in the kernel's queue until listen's retry
        // takes it, and its session's end is the event waited for.
        let late = try RawConnection(port: listen.port)
        try late.send(Self.session("late") + Self.tree(children: 1))
        late.close()
        #expect(listen.waitForLine(timeout: 20) { $0.contains(" late [ended]") } != nil, "accepting again once descriptors are free")
    }
}

final class LockedErrors: @unchecked Sendable {
    private let lock = NSLock()
    private var errors: [any Error] = []

    func append(_ error: any Error) {
        lock.withLock { errors.append(error) }
    }

    var all: [any Error] { lock.withLock { errors } }
}
