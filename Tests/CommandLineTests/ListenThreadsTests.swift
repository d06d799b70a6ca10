import Foundation
import TestSupport
import Testing

/// `listen` runs on its executors alone (ServerExecutors): idle, it holds at most 6 threads (the main thread,
/// Dispatch's one, two event loops, the pool's two), before and after a hook session; Ctrl-C still stops it.
@Suite struct ListenThreadsTests {
    private static func threads(of listen: ListenProcess) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(listen.process.processIdentifier)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("Threads:") })
        else { return nil }
        return Int(line.dropFirst("Threads:".count).trimmingCharacters(in: .whitespaces))
    }

    @Test(.timeLimit(.minutes(1)))
    func idleListenHoldsAtMostSixThreadsAndStopsOnInterrupt() throws {
        let listen = try ListenProcess([])
        defer { listen.stop() }
        _ = try #require(listen.pagePort)
        // The threads that started it (Swift concurrency's) end once idle: waited for, not slept.
        var count = Self.threads(of: listen)
        waitUntil(seconds: 30) {
            count = Self.threads(of: listen)
            return (count ?? .max) <= 6
        }
        #expect((count ?? .max) <= 6, "idle after start: \(count.map(String.init) ?? "?") threads")

        let hook = try RawConnection(port: listen.port)
        try hook.send(
            #"{"event":"session","v":1,"app":"Threads","run":"threads-1"}"# + "\n" + #"{"seq":1,"t":0,"event":"add","id":1,"type":"AppCoordinator"}"#
                + "\n" + #"{"seq":2,"t":1,"event":"end"}"# + "\n")
        hook.close()
        #expect(listen.waitForLine(timeout: 20) { $0.contains("threads-1") } != nil, "\(listen.lines)")
        waitUntil(seconds: 30) {
            count = Self.threads(of: listen)
            return (count ?? .max) <= 6
        }
        #expect((count ?? .max) <= 6, "idle after a session: \(count.map(String.init) ?? "?") threads")
        #expect(listen.send(SIGINT, exitWithin: 10), "Ctrl-C stops it")
    }
}
