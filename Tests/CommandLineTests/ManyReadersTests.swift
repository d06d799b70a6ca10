import Foundation
import TestSupport
import Testing

/// 200 pages polling one `coordlens listen` while a hook streams into the session they show: the cheap answers are
/// never turned away, and a model or picture is built once for every page asking at that moment, so none is turned
/// away either. Bounded: 200 readers for 5 s on 127.0.0.1; `make bench` (Benchmarks/readers.py) has the timings.
@Suite(.serialized) struct ManyReadersTests {
    private static let run = "many-readers"

    /// One request over a fresh connection, as a browser that accepts gzip: the status (0 when none came within 30 s)
    /// and whether the body came gzip-compressed.
    private static func get(_ target: String, port: Int) -> (status: Int, gzip: Bool) {
        guard let connection = try? RawConnection(port: port) else { return (0, false) }
        defer { connection.close() }
        let request = "GET \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nAccept-Encoding: gzip, deflate\r\nConnection: close\r\n\r\n"
        guard (try? connection.send(request)) != nil, let head = try? connection.receiveHead(seconds: 30) else { return (0, false) }
        let status = Int(head.split(separator: " ").dropFirst().first ?? "") ?? 0
        return (status, head.lowercased().contains("content-encoding: gzip"))
    }

    /// Lines of a session: coordinators three levels deep, some dismissed and freed.
    private static func lines(_ seqs: ClosedRange<Int>) -> String {
        seqs.map { seq in
            let parent = seq == 1 ? "" : #","parent":\#(max(1, seq / 50))"#
            switch seq % 10 {
            case 8 where seq > 10: return #"{"seq":\#(seq),"t":\#(Double(seq) / 1e4),"event":"dismiss","id":\#(seq - 7)}"#
            case 9 where seq > 20: return #"{"seq":\#(seq),"t":\#(Double(seq) / 1e4),"event":"deinit","id":\#(seq - 11)}"#
            default: return #"{"seq":\#(seq),"t":\#(Double(seq) / 1e4),"event":"add","id":\#(seq),"type":"Flow\#(seq % 40)Coordinator"\#(parent)}"#
            }
        }.joined(separator: "\n") + "\n"
    }

    /// A `listen` with a hook connection that has sent the first `events` lines of the session; its page port.
    private static func listenToASession(of events: Int) throws -> (ListenProcess, port: Int, hook: RawConnection) {
        let listen = try ListenProcess([])
        do {
            let port = try #require(listen.pagePort)
            let hook = try RawConnection(port: listen.port)
            try hook.send(#"{"event":"session","v":1,"app":"Readers","run":"\#(Self.run)"}"# + "\n" + Self.lines(1...events))
            #expect(listen.waitForLine(timeout: 30) { $0.contains(Self.run) } != nil, "\(listen.lines)")
            return (listen, port, hook)
        } catch {
            listen.stop()
            throw error
        }
    }

    @Test(.timeLimit(.minutes(2)))
    func twoHundredReadersWhileAHookStreamsAreNeverTurnedAway() throws {
        let (listen, port, hook) = try Self.listenToASession(of: 5_000)
        defer { listen.stop() }

        let streaming = DispatchSemaphore(value: 0)
        let tally = Tally()
        Thread {
            var seq = 5_000
            // At most 10,000 events more, however long the readers take: a loaded machine must not grow the session.
            while !tally.stopped, seq < 15_000 {
                try? hook.send(Self.lines((seq + 1)...(seq + 200)))
                seq += 200
                // clock: a steady stream, 2,000 events a second, is the load the readers are under.
                Thread.sleep(forTimeInterval: 0.1)
            }
            streaming.signal()
        }.start()

        // Every page keeps its event stream open.
        let feeds = (0..<200).compactMap { _ -> RawConnection? in
            guard let connection = try? RawConnection(port: port) else { return nil }
            try? connection.send("GET /api/events HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n")
            return connection
        }
        let feedStatuses = feeds.map { connection in
            Int((try? connection.receiveHead(seconds: 30))?.split(separator: " ").dropFirst().first ?? "") ?? 0
        }

        let done = DispatchGroup()
        let until = Date(timeIntervalSinceNow: 5)
        for _ in 0..<200 {
            done.enter()
            Thread {
                while Date() < until {
                    for target in ["/api/sessions", "/api/model?run=\(Self.run)", "/api/tree?run=\(Self.run)"] {
                        let (status, gzip) = Self.get(target, port: port)
                        tally.note(String(target.prefix { $0 != "?" }), status: status, gzip: gzip)
                    }
                }
                done.leave()
            }.start()
        }
        done.wait()
        tally.stop()
        streaming.wait()
        let peak = listen.residentMiB ?? 0
        let (all, compressed) = tally.counts
        let streams = Dictionary(grouping: feedStatuses) { $0 }.mapValues(\.count)
        print("200 readers for 5 s: \(all); \(compressed) answers gzip-compressed; event streams \(streams); listen at \(peak) MiB")

        #expect(feedStatuses.count == 200 && feedStatuses.allSatisfy { $0 == 200 }, "every page's event stream: \(feedStatuses)")
        for endpoint in ["/api/sessions", "/api/model", "/api/tree"] {
            let statuses = all[endpoint] ?? [:]
            #expect(statuses[503] == nil, "\(endpoint) never turned away: \(statuses)")
            // A request unanswered within 30 s (status 0) is only a machine too loaded to tell anything.
            let answered = statuses[200, default: 0]
            #expect(Double(answered) >= 0.95 * Double(statuses.values.reduce(0, +)), "\(endpoint): \(statuses)")
        }
        #expect(compressed > 0, "large answers go out gzip-compressed to clients that accept it")
        withExtendedLifetime((feeds, hook)) {}
    }

    /// The head of one answer to `GET target` with `headers`, over a fresh connection, and the bytes after it.
    private static func answer(_ target: String, port: Int, headers: String = "") throws -> (head: String, body: Int) {
        let connection = try RawConnection(port: port)
        defer { connection.close() }
        try connection.send("GET \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\(headers)Connection: close\r\n\r\n")
        // The server closes after the answer: everything read until then is the answer.
        let text = try connection.receive(until: "\u{0}", seconds: 30)
        let parts = text.components(separatedBy: "\r\n\r\n")
        return (parts[0], parts.dropFirst().joined(separator: "\r\n\r\n").utf8.count)
    }

    private static func header(_ name: String, in head: String) -> String? {
        head.split(separator: "\r\n").first { $0.lowercased().hasPrefix(name.lowercased() + ": ") }.map { String($0.dropFirst(name.count + 2)) }
    }

    @Test(.timeLimit(.minutes(1)))
    func aPageHoldingTheNewestAnswerIsToldNotModifiedWithoutTheBody() throws {
        let (listen, port, hook) = try Self.listenToASession(of: 50)
        defer { listen.stop() }
        try hook.send(#"{"seq":51,"t":1,"event":"end"}"# + "\n")
        let target = "/api/model?run=\(Self.run)"
        // Asked until the model has all 51 events (the end included): the hook's lines arrive in their own time.
        var first = try Self.answer(target, port: port)
        try waitUntil(seconds: 20) {
            first = try Self.answer(target, port: port)
            return Self.header("X-Lens-Seq", in: first.head) == "51"
        }
        #expect(first.head.hasPrefix("HTTP/1.1 200") && first.body > 0, "\(first.head)")
        let tag = try #require(Self.header("ETag", in: first.head), "a shared answer is tagged: \(first.head)")

        let again = try Self.answer(target, port: port, headers: "If-None-Match: \(tag)\r\n")
        #expect(again.head.hasPrefix("HTTP/1.1 304"), "\(again.head)")
        #expect(again.body == 0 && Self.header("Content-Length", in: again.head) == nil, "no body: \(again.head)")
        #expect(Self.header("ETag", in: again.head) == tag && Self.header("X-Lens-Seq", in: again.head) == "51")

        let other = try Self.answer(target, port: port, headers: "If-None-Match: W/\"0-0\"\r\n")
        #expect(other.head.hasPrefix("HTTP/1.1 200") && other.body == first.body, "another tag gets the answer: \(other.head)")
        withExtendedLifetime(hook) {}
    }
}

/// The readers' answers by endpoint and status, and whether the streaming thread is to stop.
private final class Tally: @unchecked Sendable {
    private let lock = NSLock()
    private var answers: [String: [Int: Int]] = [:]
    private var gzipped = 0
    private var stopping = false

    var stopped: Bool { lock.withLock { stopping } }
    var counts: ([String: [Int: Int]], Int) { lock.withLock { (answers, gzipped) } }

    func stop() { lock.withLock { stopping = true } }

    func note(_ endpoint: String, status: Int, gzip: Bool) {
        lock.withLock {
            answers[endpoint, default: [:]][status, default: 0] += 1
            if gzip { gzipped += 1 }
        }
    }
}
