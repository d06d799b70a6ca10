import CoordinatorTrace
import Foundation
import TestSupport
import Testing

/// `listen` bound beyond loopback, reached from another host: a network namespace joined by a veth pair. Nothing of
/// the page answers without the token; the token in the address trades for a cookie that opens the rest.
@Suite(.serialized, .enabled(if: NetworkNamespace.unavailable == nil, "\(NetworkNamespace.unavailable ?? "")"))
struct NetworkAccessTests {
    /// One HTTP/1.1 request over a fresh connection: the status and the raw response.
    private static func get(_ target: String, host: String, port: Int, cookie: String? = nil) throws -> (status: Int, text: String) {
        let connection = try RawConnection(host: host, port: port)
        defer { connection.close() }
        var request = "GET \(target) HTTP/1.1\r\nHost: \(host):\(port)\r\nConnection: close\r\n"
        if let cookie { request += "Cookie: \(cookie)\r\n" }
        try connection.send(request + "\r\n")
        let text = try connection.receive(until: "\r\n\r\n", seconds: 10)
        let status = Int(text.split(separator: " ").dropFirst().first ?? "") ?? 0
        return (status, text)
    }

    @Test func thePageAnswersNothingWithoutItsTokenAndEverythingWithTheCookie() throws {
        let namespace = try NetworkNamespace()
        defer { namespace.remove() }
        let listen = try ListenProcess(["--host", "0.0.0.0"], namespace: namespace)
        defer { listen.stop() }
        let announced = try #require(listen.waitForLine(timeout: 10) { $0.contains("from the network: http://\(namespace.insideAddress):") })
        let address = try #require(URLComponents(string: String(announced.split(separator: " ").last!)))
        let port = try #require(address.port)
        let token = try #require(address.queryItems?.first { $0.name == "token" }?.value)
        #expect(token.count == 64, "256 bits as hex")
        let host = namespace.insideAddress

        for target in ["/", "/main.js", "/sanitise.js", "/api/sessions", "/api/events", "/api/tree?run=x", "/?token=" + String(repeating: "0", count: 64)] {
            #expect(try Self.get(target, host: host, port: port).status == 401, "\(target) without the token")
        }
        let admitted = try Self.get("/?token=\(token)", host: host, port: port)
        #expect(admitted.status == 303)
        let setCookie = try #require(admitted.text.split(separator: "\r\n").first { $0.lowercased().hasPrefix("set-cookie:") })
        #expect(setCookie.contains("HttpOnly") && setCookie.contains("SameSite=Strict"))
        #expect(admitted.text.contains("Location: /\r\n"), "sent on to the address without the token")
        let cookie = String(setCookie.dropFirst("Set-Cookie: ".count).split(separator: ";").first!)
        #expect(try Self.get("/api/sessions", host: host, port: port, cookie: cookie).status == 200)
        #expect(try Self.get("/", host: host, port: port, cookie: cookie).status == 200)
        // The page's modules are fetched by the browser with the same cookie.
        #expect(try Self.get("/main.js", host: host, port: port, cookie: cookie).status == 200)
        #expect(try Self.get("/sanitise.js", host: host, port: port, cookie: cookie).status == 200)

        // A thousand wrong tokens neither lock the right one out nor make listen hold on to anything.
        let before = listen.residentMiB ?? 0
        for attempt in 0..<1_000 {
            let wrong = String(format: "%064x", attempt)
            _ = try Self.get("/?token=\(wrong)", host: host, port: port)
        }
        #expect(try Self.get("/api/sessions", host: host, port: port, cookie: cookie).status == 200)
        let after = listen.residentMiB ?? 0
        #expect(after - before < 20, "resident memory went from \(before) to \(after) MiB")
    }

    @Test func bindingBeyondLoopbackWithoutATokenMustSayItIsUnsafe() async throws {
        let refused = try await BuiltProduct.coordlens.runAsync(["listen", "--host", "0.0.0.0", "--token", "short"], timeout: 20)
        #expect(refused.status == 64 || refused.status == 2, "\(refused.standardError)")
        #expect(refused.standardError.contains("a token needs at least 32 characters"))
        let contradiction = try await BuiltProduct.coordlens.runAsync(
            ["listen", "--host", "0.0.0.0", "--token", String(repeating: "a", count: 32), "--unsafe-no-token"], timeout: 20
        )
        #expect(contradiction.standardError.contains("contradict"))
    }

    /// A sample app on this side of the link streams to `listen` on the other with the token from the hook line
    /// `listen` printed; with a wrong one it is refused, says so on its console, and nothing of it is recorded.
    @Test func aHookFromAnotherHostGetsInWithItsTokenOnly() async throws {
        let namespace = try NetworkNamespace()
        defer { namespace.remove() }
        let folder = try TemporaryFolder("coordlens-net")
        defer { withExtendedLifetime(folder) {} }
        let path = folder.file("rec.ndjson")
        let listen = try ListenProcess(["--host", "0.0.0.0", "--record", path], namespace: namespace)
        defer { listen.stop() }
        let hookLine = try #require(listen.waitForLine(timeout: 10) { $0.contains("hook from the network:") && $0.contains(namespace.insideAddress) })
        #expect(hookLine.contains(".tcp(host: \"\(namespace.insideAddress)\", port: \(listen.port), token: \""), "\(hookLine)")
        let token = try #require(HookTokenTests.token(inHookLine: hookLine))
        let destination = "\(namespace.insideAddress):\(listen.port)"

        let wrong = try await HookTokenTests.deliveroo.runAsync(["--tcp", destination, "--token", String(repeating: "0", count: 64)], timeout: 60)
        #expect(wrong.standardError.contains("refused this app's connection: the token is not the one it printed"), "\(wrong.standardError)")
        #expect(
            listen.waitForLine(timeout: 10) { $0.contains("refused a hook connection from \(namespace.outsideAddress): wrong token") } != nil, "\(listen.lines)"
        )

        // A thousand wrong tokens: each answered and closed, none kept, and the right one still gets in.
        let before = listen.residentMiB ?? 0
        for attempt in 0..<1_000 {
            let connection = try RawConnection(host: namespace.insideAddress, port: listen.port)
            try connection.send(
                "{\"auth\":\"\(String(format: "%064x", attempt))\"}\n{\"event\":\"session\",\"v\":1,\"app\":\"Forged\",\"run\":\"f\(attempt)\"}\n")
            let answer = try connection.receive(until: "\n", seconds: 10)
            connection.close()
            if attempt == 0 { #expect(answer == "{\"refused\":\"token\"}\n") }
        }
        let after = listen.residentMiB ?? 0
        #expect(after - before < 20, "resident memory went from \(before) to \(after) MiB")

        let right = try await HookTokenTests.deliveroo.runAsync(["--tcp", destination, "--token", token], timeout: 60)
        #expect(right.status == 0 && !right.standardError.contains("refused"), "\(right.standardError)")
        #expect(listen.waitForLine(timeout: 20) { $0.contains("[ended]") } != nil, "\(listen.lines)")
        #expect(listen.send(SIGTERM, exitWithin: 10))
        let runs = HookTokenTests.recordedRuns(path)
        #expect(runs.count == 1, "only the app with the token is recorded: \(runs)")
        let check = try await BuiltProduct.coordlens.runAsync(["check", path], timeout: 60)
        #expect(check.standardOutput.contains("RETAINED"), "the run is judged: \(check.standardOutput)")
    }

    /// A hook streaming to a `listen --record` inside a namespace of its own while `fault` strikes; `fault` gets the
    /// namespace, the listen and a way to start another on the same address, and returns the listen that sees the end.
    /// Returns what the recording reports dropped, after holding the hook's counts to it.
    private func streamAcrossTheLink(
        cutLines: Int = 0, _ fault: (NetworkNamespace, ListenProcess, () throws -> ListenProcess) throws -> ListenProcess
    ) throws -> Int {
        let namespace = try NetworkNamespace()
        defer { namespace.remove() }
        let folder = try TemporaryFolder("coordlens-net")
        defer { withExtendedLifetime(folder) {} }
        let path = folder.file("rec.ndjson")
        let token = String(repeating: "t", count: 48)
        // Inside its own namespace every port is free.
        let port = 47_420
        let start = { try ListenProcess(["--host", "0.0.0.0", "--token", token, "--record", path], port: port, namespace: namespace) }
        let first = try start()
        let tracer = Tracer()
        tracer.start(
            app: "AcrossTheLink", sink: .tcp(host: namespace.insideAddress, port: port, token: token),
            options: TraceOptions(bufferCapacity: 1 << 20, backlogCapacity: 1 << 20, endTimeout: 30)
        )
        let run = try #require(tracer.runID)
        let streamer = HookStreamer(tracer, rounds: 60, perRound: 300, pause: 0.01)
        // The fault comes mid-stream: once listen has the run live.
        #expect(first.waitForLine(timeout: 30) { $0.contains("[live]") } != nil, "\(first.lines)")
        let last = try fault(namespace, first, start)
        // The first process object lives to the end: freeing it closes its pipe (see NothingLostTests).
        defer { withExtendedLifetime(first) { last.stop() } }
        streamer.wait()
        tracer.end()
        #expect(last.waitForLine(timeout: 30) { $0.contains("[ended]") } != nil, "\(last.lines)")
        #expect(last.send(SIGTERM, exitWithin: 10))
        return try HookAccounting.expectEverythingAccounted(tracer, run: run, path: path, cutLines: cutLines)
    }

    /// `kill -9` of `listen` across the link mid-stream, and a new one on the same address: the hook reconnects and
    /// resends what the recording lacks, so the hook's own count equals what is recorded plus what it dropped.
    @Test func aKilledListenAcrossTheLinkLosesNothing() throws {
        let dropped = try streamAcrossTheLink(cutLines: 1) { _, first, start in
            #expect(first.send(SIGKILL, exitWithin: 10))
            // clock: the outage is the fault: for this long nothing listens and the hook keeps its backlog.
            Thread.sleep(forTimeInterval: 0.3)
            return try start()
        }
        #expect(dropped == 0, "a hook with room for its backlog drops nothing across a restart")
    }

    /// The link itself goes down mid-stream for a second and a half and comes back: packets stop, nothing closes.
    /// The hook waits out the outage on the same connection (or takes it for dead after its stall time and
    /// reconnects), and the accounting still holds exactly.
    @Test func aLinkThatGoesDownMidStreamLosesNothingUncounted() throws {
        let dropped = try streamAcrossTheLink { namespace, listen, _ in
            try namespace.setLink(up: false)
            // clock: the outage's length is the fault: long enough that the hook may take the silent connection for dead.
            Thread.sleep(forTimeInterval: 1.5)
            try namespace.setLink(up: true)
            return listen
        }
        #expect(dropped == 0, "a hook with room for its backlog drops nothing across an outage")
    }
}
