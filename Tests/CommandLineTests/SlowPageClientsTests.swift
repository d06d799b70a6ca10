import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Clients that hold page connections without finishing a request (and reopen each one the server closes) cannot keep
/// the user from the page: on loopback, and beyond it with the token, where they lack it. Refusals are said in a few
/// status lines however many there are.
@Suite(.serialized) struct SlowPageClientsTests {
    /// One request over a fresh connection, as a browser's fetch would: its status, 0 when none came within 5 s.
    private static func status(_ target: String, host: String, port: Int, cookie: String? = nil) -> Int {
        guard let connection = try? RawConnection(host: host, port: port) else { return 0 }
        defer { connection.close() }
        var request = "GET \(target) HTTP/1.1\r\nHost: \(host):\(port)\r\nConnection: close\r\n"
        if let cookie { request += "Cookie: \(cookie)\r\n" }
        guard (try? connection.send(request + "\r\n")) != nil, let text = try? connection.receiveHead(seconds: 5) else { return 0 }
        return Int(text.split(separator: " ").dropFirst().first ?? "") ?? 0
    }

    /// The user's requests, one every 50 ms for `seconds`, while `SlowClients` press: how many were answered 200.
    private static func userRequests(host: String, port: Int, cookie: String? = nil, seconds: Double) -> (ok: Int, all: Int, statuses: [Int: Int]) {
        let deadline = Date(timeIntervalSinceNow: seconds)
        var (ok, all, statuses) = (0, 0, [Int: Int]())
        while Date() < deadline {
            let status = status("/api/sessions", host: host, port: port, cookie: cookie)
            all += 1
            statuses[status, default: 0] += 1
            if status == 200 { ok += 1 }
            // clock: a user asking 20 times a second for `seconds` is the load measured.
            Thread.sleep(forTimeInterval: 0.05)
        }
        return (ok, all, statuses)
    }

    /// 200 connections that send half a request head and wait, each reopened as soon as the server closes it, while
    /// the user asks for the sessions 20 times a second: nearly every one of the user's requests is answered (it was
    /// 1 in 56 with a fixed 128 page connections and a 10 s deadline for the whole request).
    @Test(.timeLimit(.minutes(1)))
    func twoHundredSlowClientsDoNotKeepTheUserFromThePage() throws {
        let listen = try ListenProcess([])
        defer { listen.stop() }
        let port = try #require(listen.pagePort)
        let slow = try SlowClients(count: 200, host: "127.0.0.1", port: port)
        defer { slow.stop() }
        let user = Self.userRequests(host: "127.0.0.1", port: port, seconds: 5)
        let reopened = slow.reopened
        print("loopback, 200 slow clients: \(user.ok) of \(user.all) of the user's requests answered 200; slow ones reopened \(reopened) times")
        #expect(Double(user.ok) >= 0.95 * Double(user.all), "\(user.ok) of \(user.all) answered: \(user.statuses)")
        #expect(reopened >= 200, "the head's deadline closed the slow ones (reopened \(reopened) times)")
        #expect(slow.open >= 150, "they kept pressing: \(slow.open) open")
    }

    /// Beyond loopback, with the token: 200 slow connections from a client without the token neither take the places of
    /// the user's (who brings its cookie) nor print a line each; a thousand wrong tokens at the hook port print a few.
    @Test(.timeLimit(.minutes(1)), .enabled(if: NetworkNamespace.unavailable == nil, "\(NetworkNamespace.unavailable ?? "")"))
    func beyondLoopbackClientsWithoutTheTokenCannotTakeTheUsersPlaces() throws {
        let namespace = try NetworkNamespace()
        defer { namespace.remove() }
        let listen = try ListenProcess(["--host", "0.0.0.0"], namespace: namespace)
        defer { listen.stop() }
        let announced = try #require(listen.waitForLine(timeout: 10) { $0.contains("from the network: http://\(namespace.insideAddress):") })
        let address = try #require(URLComponents(string: String(announced.split(separator: " ").last!)))
        let port = try #require(address.port)
        let token = try #require(address.queryItems?.first { $0.name == "token" }?.value)
        let host = namespace.insideAddress
        let cookie = "coordlens_token_\(port)=\(token)"
        #expect(Self.status("/api/sessions", host: host, port: port, cookie: cookie) == 200)

        let slow = try SlowClients(count: 200, host: host, port: port)
        let user = Self.userRequests(host: host, port: port, cookie: cookie, seconds: 5)
        slow.stop()
        print(
            "beyond loopback, 200 slow clients without the token: \(user.ok) of \(user.all) of the user's requests answered 200; "
                + "slow ones reopened \(slow.reopened) times")
        #expect(Double(user.ok) >= 0.95 * Double(user.all), "\(user.ok) of \(user.all) answered: \(user.statuses)")
        #expect(slow.reopened >= 200, "their places were taken back (reopened \(slow.reopened) times)")

        // Wrong tokens at the hook port: each refused, all said in a few lines.
        let before = listen.lines.count
        let started = Date()
        var made = 0
        for attempt in 0..<1_000 {
            guard let connection = try? RawConnection(host: host, port: listen.port) else { continue }
            guard (try? connection.send(#"{"auth":"\#(String(format: "%064x", attempt))"}"# + "\n")) != nil else { continue }
            made += 1
            _ = try? connection.receive(until: "\n", seconds: 2)
            connection.close()
        }
        let flooding = Date().timeIntervalSince(started)
        func said() -> [String] {
            listen.lines.dropFirst(before).filter { $0.contains("refused a hook connection") || $0.hasPrefix("turned away") }
        }
        func counted() -> Int {
            said().map { line -> Int in
                guard line.hasPrefix("turned away") else { return 1 }
                return line.matches(of: /(\d[\d,]*) hook connections/).compactMap { Int($0.1.replacingOccurrences(of: ",", with: "")) }.reduce(0, +)
            }.reduce(0, +)
        }
        // The last count comes with the next summary, within 5 s.
        waitUntil(seconds: 15, every: 0.1) { counted() >= made }
        #expect(counted() == made, "every refusal counted once: \(made) made, \(said())")
        // The first at once, then one line per 5 s while they go on, and the last count.
        #expect(said().count <= 2 + Int(flooding / 5), "\(said().count) lines for \(made) refusals in \(flooding) s: \(said().prefix(8))")
    }
}

/// `count` connections that each send the start of a request head and nothing more; one the server closes is opened
/// again at once. One thread, `poll` over all of them.
private final class SlowClients: @unchecked Sendable {
    private let lock = NSLock()
    private var running = true
    private var reopenedCount = 0
    private var openCount = 0
    private let finished = DispatchSemaphore(value: 0)

    var reopened: Int { lock.withLock { reopenedCount } }
    var open: Int { lock.withLock { openCount } }

    init(count: Int, host: String, port: Int) throws {
        let partial = Array("GET /api/sessions HTTP/1.1\r\nHost: \(host):\(port)\r\nX-Slow: ".utf8)
        let first = (0..<count).map { _ in Self.connect(host: host, port: port, sending: partial) }
        guard first.contains(where: { $0 >= 0 }) else { throw ListenProcessFailure(message: "slow clients: cannot connect") }
        Thread { [self] in
            var sockets = first
            var buffer = [UInt8](repeating: 0, count: 4_096)
            while lock.withLock({ running }) {
                var pollers = sockets.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
                _ = poll(&pollers, nfds_t(pollers.count), 20)
                var reopened = 0
                for index in sockets.indices {
                    let closed: Bool
                    if sockets[index] < 0 {
                        closed = true
                    } else if pollers[index].revents != 0 {
                        closed = recv(sockets[index], &buffer, buffer.count, Int32(MSG_DONTWAIT)) <= 0
                    } else {
                        closed = false
                    }
                    guard closed else { continue }
                    if sockets[index] >= 0 { close(sockets[index]) }
                    sockets[index] = Self.connect(host: host, port: port, sending: partial)
                    reopened += 1
                }
                let open = sockets.filter { $0 >= 0 }.count
                lock.withLock {
                    reopenedCount += reopened
                    openCount = open
                }
            }
            for socket in sockets where socket >= 0 { close(socket) }
            finished.signal()
        }.start()
    }

    func stop() {
        let wasRunning = lock.withLock {
            defer { running = false }
            return running
        }
        if wasRunning { finished.wait() }
    }

    private static func connect(host: String, port: Int, sending partial: [UInt8]) -> Int32 {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return -1 }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr(host)
        address.sin_port = UInt16(port).bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0, partial.withUnsafeBytes({ send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) == partial.count else {
            close(descriptor)
            return -1
        }
        return descriptor
    }
}
