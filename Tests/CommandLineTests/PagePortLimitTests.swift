import CoordinatorLens
import Foundation
import TestSupport
import Testing

/// `coordlens listen` as a real process whose ports are abused by idle, dripping and never-reading clients: the page
/// still answers and hook sessions still get through Bounds are generous; nothing is timed closely.
@Suite(.serialized) struct PagePortLimitTests {
    private static func session(_ run: String, app: String = "Ports") -> String {
        #"{"event":"session","v":1,"app":"\#(app)","run":"\#(run)"}"# + "\n"
    }

    private static func get(_ path: String, port: Int) -> String {
        "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n"
    }

    /// Asks for `path` until an answer starts with `HTTP/1.1 200` or `seconds` pass; returns the last answer.
    private static func firstOK(_ path: String, port: Int, until marker: String, seconds: Double) -> String {
        var answer = ""
        waitUntil(seconds: seconds, every: 0.25) {
            guard let connection = try? RawConnection(port: port) else { return false }
            try? connection.send(get(path, port: port))
            answer = (try? connection.receive(until: marker, seconds: 2)) ?? ""
            return answer.hasPrefix("HTTP/1.1 200") && answer.contains(marker)
        }
        return answer
    }

    /// Sends one byte a second until a send fails (the server closed) or `seconds` pass; returns the seconds until the
    /// failure, nil if it never came.
    private static func dripUntilClosed(_ connection: RawConnection, _ bytes: String, seconds: Double) -> Double? {
        let started = Date()
        for byte in bytes.utf8.cycled() {
            if Date().timeIntervalSince(started) > seconds { return nil }
            do { try connection.send([byte]) } catch { return Date().timeIntervalSince(started) }
            // clock: a byte a second is the fault: a client slower than the server's deadline for a request or a line.
            Thread.sleep(forTimeInterval: 1)
        }
        return nil
    }

    @Test(.timeLimit(.minutes(1)))
    func underFewDescriptorsIdlePageConnectionsStopNeitherThePageNorAHookSession() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("coordlens-ports-\(UUID())").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let listen = try ListenProcess(["--record", folder + "/rec.ndjson"], descriptors: 256)
        defer { listen.stop() }
        let pagePort = try #require(listen.pagePort)

        // Before the limit they took every descriptor: the page stopped answering and hooks waited in the kernel.
        let idle = (0..<300).compactMap { _ in try? RawConnection(port: pagePort) }
        #expect(idle.count == 300, "every connection is accepted, the excess closed at once rather than queued")
        #expect(listen.waitForLine(timeout: 10) { $0.contains("page connection limit of 56 reached") } != nil)

        let hook = try RawConnection(port: listen.port)
        try hook.send(Self.session("through") + #"{"seq":1,"t":0,"event":"add","id":1,"type":"Root"}"# + "\n")
        try hook.send(#"{"seq":2,"t":0.01,"event":"end"}"# + "\n")
        hook.close()
        #expect(listen.waitForLine(timeout: 20) { $0.contains(" through [ended]") } != nil, "the hook session got through")

        // A new connection takes the place of the idle one that has waited longest, so the page answers again at once.
        let answer = Self.firstOK("/", port: pagePort, until: "</html>", seconds: 40)
        #expect(answer.hasPrefix("HTTP/1.1 200"), "GET / answered: \(answer.prefix(80))")

        #expect(listen.send(SIGTERM, exitWithin: 10))
        let recording = Recording(bytes: try #require(FileManager.default.contents(atPath: folder + "/rec.ndjson")))
        #expect(try recording.session(run: "through")?.snapshot().ended == true, "the hook session is recorded")
        withExtendedLifetime(idle) {}
    }

    @Test(.timeLimit(.minutes(1)))
    func eventStreamClientsThatNeverReadDoNotLockOutARealPage() throws {
        let listen = try ListenProcess([])
        defer { listen.stop() }
        let pagePort = try #require(listen.pagePort)
        // 200 sessions with long names make every page's first message 800 kB: more than a connection that is never
        // read takes, so it stays full.
        let hook = try RawConnection(port: listen.port)
        let name = String(repeating: "Wide", count: 1_000)
        try hook.send((0..<200).map { Self.session("wide\($0)", app: name) }.joined())
        #expect(listen.waitForLine(timeout: 20) { $0.contains(" wide199 [") } != nil)

        let silent = try (0..<70).map { _ in
            let connection = try RawConnection(port: pagePort, receiveBuffer: 1_024)
            try connection.send(Self.get("/api/events", port: pagePort))
            return connection
        }
        // The real page comes once the server has answered (or closed) every one of them.
        #expect(waitUntil(seconds: 30) { silent.allSatisfy(\.isReadable) }, "every silent feed answered")
        // Before, the 64 that never read held every place of the feed: a real page got 503 for as long as they stayed.
        let feed = Self.firstOK("/api/events", port: pagePort, until: "event: hello", seconds: 30)
        #expect(feed.hasPrefix("HTTP/1.1 200"), "a real page's feed: \(feed.prefix(80))")
        let page = Self.firstOK("/", port: pagePort, until: "</html>", seconds: 20)
        #expect(page.hasPrefix("HTTP/1.1 200"), "GET /: \(page.prefix(80))")
        withExtendedLifetime((silent, hook)) {}
    }

    @Test(.timeLimit(.minutes(1)))
    func onAQuietInspectorEventStreamClientsThatNeverReadStillGiveWayToARealPage() throws {
        let listen = try ListenProcess([])
        defer { listen.stop() }
        let pagePort = try #require(listen.pagePort)
        let hook = try RawConnection(port: listen.port)
        try hook.send(Self.session("small"))
        #expect(listen.waitForLine(timeout: 20) { $0.contains(" small [") } != nil)
        // Their connections never fill, so only their age can tell them from a real page: the oldest gives way.
        let silent = try (0..<70).map { _ in
            let connection = try RawConnection(port: pagePort)
            try connection.send(Self.get("/api/events", port: pagePort))
            return connection
        }
        // The real page comes once the server has answered (or closed) every one of them.
        #expect(waitUntil(seconds: 30) { silent.allSatisfy(\.isReadable) }, "every silent feed answered")
        let feed = Self.firstOK("/api/events", port: pagePort, until: "event: hello", seconds: 20)
        #expect(feed.hasPrefix("HTTP/1.1 200"), "a real page's feed: \(feed.prefix(80))")
        #expect(feed.contains(#""run":"small""#))
        withExtendedLifetime((silent, hook)) {}
    }

    @Test(.timeLimit(.minutes(1)))
    func aSlowDripPageConnectionIsClosedWithinTheRequestDeadline() throws {
        let listen = try ListenProcess(["--page-request-timeout", "2"])
        defer { listen.stop() }
        let pagePort = try #require(listen.pagePort)
        let drip = try RawConnection(port: pagePort)
        // A valid request, a byte a second: the deadline is for the whole request, so it is closed after about 2 s.
        let closedAfter = Self.dripUntilClosed(drip, Self.get("/", port: pagePort), seconds: 20)
        #expect(closedAfter != nil, "the dripping connection was never closed")
        #expect((closedAfter ?? 99) < 12, "closed after \(closedAfter ?? -1) s")
        let answer = Self.firstOK("/", port: pagePort, until: "</html>", seconds: 10)
        #expect(answer.hasPrefix("HTTP/1.1 200"), "a whole request is still answered")
    }

    @Test(.timeLimit(.minutes(1)))
    func aHookConnectionWithoutCompleteLinesIsClosedAfterTheHookIdleTimeoutAndOneWithHeartbeatsStays() throws {
        let listen = try ListenProcess(["--hook-idle-timeout", "2"])
        defer { listen.stop() }
        let quiet = try RawConnection(port: listen.port)
        try quiet.send(Self.session("quiet"))
        let beating = try RawConnection(port: listen.port)
        try beating.send(Self.session("beating"))
        // The quiet one drips a line a byte a second; the other sends a heartbeat line every half second.
        let dripping = Thread {
            _ = Self.dripUntilClosed(quiet, #"{"seq":1,"t":0,"event":"heartbeat"}"# + "\n", seconds: 20)
        }
        dripping.start()
        var beatsSent = 0
        for seq in 1...14 {
            do {
                try beating.send(#"{"seq":\#(seq),"t":\#(Double(seq) / 2),"event":"heartbeat"}"# + "\n")
                beatsSent += 1
            } catch { break }
            // clock: a heartbeat every half second is what keeps a connection past a 2 s idle timeout.
            Thread.sleep(forTimeInterval: 0.5)
        }
        let closed = listen.waitForLine(timeout: 15) { $0.contains("closed: no complete line for 2 s") }
        #expect(closed != nil)
        #expect(listen.waitForLine(timeout: 10) { $0.contains(" quiet [disconnected]") } != nil)
        #expect(beatsSent == 14, "the connection with heartbeats stays open")
        #expect(listen.lines.filter { $0.contains("closed: no complete line") }.count == 1, "\(listen.lines)")
    }
}

extension Collection {
    /// The elements over and over.
    fileprivate func cycled() -> AnySequence<Element> {
        AnySequence { () -> AnyIterator<Element> in
            var iterator = makeIterator()
            return AnyIterator {
                if let next = iterator.next() { return next }
                iterator = makeIterator()
                return iterator.next()
            }
        }
    }
}
