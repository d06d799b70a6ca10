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

        for target in ["/", "/inspector.js", "/api/sessions", "/api/events", "/api/tree?run=x", "/?token=" + String(repeating: "0", count: 64)] {
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
}
