import Foundation
import TestSupport
import Testing

@testable import CoordinatorLensServer

/// The inspector page's HTTP side over real sockets: pages that read slowly or vanish never hold up the hook
/// connections, and what the page is sent is bounded.
@Suite(.serialized) struct InspectorPageTests {
    private func startServer() async throws -> (InspectorServer, hook: Int, page: Int) {
        var options = ListenOptions()
        options.port = 0
        options.httpPort = 0
        // A page that stays full is skipped here, not dropped: a loaded machine may take longer than the default 10 s
        // to fill it and check (PagePortLimitTests covers the drop).
        options.page.feedStallTimeout = 600
        let server = InspectorServer(options: options) { _ in }
        let hook = try await server.start()
        return (server, hook, try #require(server.pagePort))
    }

    private func openFeed(port: Int, receiveBuffer: Int32? = nil) throws -> RawConnection {
        let connection = try RawConnection(port: port, receiveBuffer: receiveBuffer)
        try connection.send("GET /api/events HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nAccept: text/event-stream\r\n\r\n")
        return connection
    }

    private func eventually(_ seconds: Double = 20, _ condition: () -> Bool) async -> Bool {
        await waitUntil(seconds: seconds) { () async in condition() }
    }

    @Test func aPageThatNeverReadsIsSkippedWhileTheHooksKeepFlowing() async throws {
        let (server, hook, page) = try await startServer()
        let feed = try #require(server.pageFeed)
        let stuck = try openFeed(port: page, receiveBuffer: 4_096)
        #expect(await eventually { feed.clientCount == 1 })

        // Big app names make every summary big, so the stuck page's connection fills within a second or two.
        let app = String(repeating: "A", count: 20_000)
        let sessions = 30
        let eventsEach = 2_000
        let writers = try (0..<sessions).map { index in
            let connection = try RawConnection(port: hook)
            let header = #"{"event":"session","v":1,"app":"\#(app)","run":"run-\#(index)"}"#
            try connection.send(header + "\n")
            return connection
        }
        let perRound = eventsEach / 20
        var round = 0
        func sendRound() throws {
            for (index, connection) in writers.enumerated() {
                var batch = ""
                for step in 0..<perRound {
                    let id = round * perRound + step + 1
                    let parent = id == 1 ? "" : #","parent":1"#
                    batch += #"{"seq":\#(id),"t":\#(Double(id) / 1000),"event":"add","id":\#(id),"type":"C\#(index)"\#(parent)}"# + "\n"
                }
                try connection.send(batch)
            }
            round += 1
        }
        for _ in 0..<20 {
            try sendRound()
            // clock: rounds 50 ms apart are a steady stream, which the feed sends on as one update after another.
            try await Task.sleep(nanoseconds: 50_000_000)
        }
        // On a loaded machine the feed may have sent too few updates to fill the stuck page's connection (what this
        // test is about): a few more rounds, one at a time, until it lags.
        var extra = 0
        while extra < 20, !(await eventually(5, { feed.laggingCount == 1 })) {
            try sendRound()
            extra += 1
        }
        let sentEach = round * perRound
        // Thread Sanitizer slows the intake several times over: the bound is generous, the wait ends when all is in.
        let everything = await eventually(120) {
            let lives = server.sessions.snapshots(grace: 2)
            return lives.count == sessions && lives.allSatisfy { $0.events == sentEach }
        }
        #expect(everything, "every hook event arrived although a page read nothing")
        #expect(feed.laggingCount == 1, "the stuck page was skipped rather than queued for")

        // Once it reads again it drains, and gets every session anew in a second `hello`.
        let caughtUp = try stuck.receiveUntilQuiet(1, seconds: 30)
        #expect(caughtUp.components(separatedBy: "event: hello").count > 2, "a page that drained is sent everything anew")
        #expect(await eventually { feed.laggingCount == 0 })

        stuck.reset()
        #expect(await eventually { feed.clientCount == 0 }, "a page that vanished is dropped")
        writers.forEach { $0.close() }
        await server.stop()
    }

    @Test func aPageThatConnectsIsSentEverySessionAtOnce() async throws {
        let (server, hook, page) = try await startServer()
        let feed = try #require(server.pageFeed)
        let connection = try RawConnection(port: hook)
        try connection.send(#"{"event":"session","v":1,"app":"Small","run":"small"}"# + "\n")
        try connection.send(#"{"seq":1,"t":0.1,"event":"add","id":1,"type":"AppCoordinator"}"# + "\n")
        #expect(await eventually { server.sessions.snapshots(grace: 2).first?.events == 1 })
        let reader = try openFeed(port: page)
        #expect(await eventually { feed.clientCount == 1 })
        let text = try reader.receive(until: #""run":"small""#, seconds: 10)
        #expect(text.contains("event: hello"))
        #expect(text.contains("\"run\":\"small\""))
        reader.close()
        connection.close()
        await server.stop()
    }
}
