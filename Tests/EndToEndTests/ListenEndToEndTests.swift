import CoordinatorLens
import CoordinatorLensServer
import CoordinatorTrace
import Foundation
import TestSupport
import Testing

final class AppCoordinator: Sendable {}
final class CheckoutCoordinator: Sendable {}
final class CheckoutScreen: Sendable {}

@Suite(.serialized) struct ListenEndToEndTests {
    private func temporaryDirectory() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("coordlens-e2e-\(UUID())").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// Polls `condition` for up to `seconds`; a real network and a real writer thread need a moment.
    private func eventually(_ seconds: Double = 10, _ condition: () -> Bool) async -> Bool {
        await waitUntil(seconds: seconds, every: 0.05) { () async in condition() }
    }

    @Test func hookStreamsOverTCPAndListenDrawsTheLeakInRed() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var options = ListenOptions()
        options.port = 0
        options.outputDirectory = directory
        options.recordPath = directory + "/stream.ndjson"
        options.grace = 0.2
        let lines = LockedLines()
        let server = InspectorServer(options: options) { lines.append($0) }
        let port = try await server.start()

        let tracer = Tracer()
        tracer.start(app: "Shop", sink: .tcp(host: "127.0.0.1", port: port))
        let run = try #require(tracer.runID)
        let app = AppCoordinator()
        tracer.added(app, to: nil)
        var checkout: CheckoutCoordinator? = CheckoutCoordinator()
        var screen: CheckoutScreen? = CheckoutScreen()
        tracer.added(checkout!, to: app)
        tracer.bind(checkout!, to: screen!)
        let kept = checkout
        checkout = nil
        screen = nil  // swiped down: nobody calls didFinish, the coordinator stays in `children`
        tracer.flush()
        // clock: the grace (0.2 s) must pass in the events' own times before the end, or the screen's departure is judged undecided.
        try await Task.sleep(nanoseconds: 300_000_000)
        tracer.end()

        let svgPath = directory + "/\(FileName.forRun(run)).svg"
        let drawn = await eventually {
            server.refresh()
            guard let data = FileManager.default.contents(atPath: svgPath),
                let svg = try? SVGElement.parse(data)
            else { return false }
            return svg.element(id: "c2")?.classes.contains("verdict-retained") == true
        }
        #expect(drawn, "the re-rendered SVG shows the checkout coordinator retained")
        let svg = try SVGElement.parse(try #require(FileManager.default.contents(atPath: svgPath)))
        #expect(svg.element(id: "c2")?.shapeFill?.lowercased() == "#cf222e")
        #expect(svg.element(id: "c1")?.classes.contains("verdict-alive") == true)
        #expect(svg.element(id: "c1")?.shapeFill?.lowercased() != "#cf222e")

        let live = try #require(server.sessions.snapshots(grace: 0.2).first { $0.snapshot.run == run })
        #expect(live.snapshot.ended)
        #expect(live.snapshot.warnings.isEmpty)
        // The test's own variable `kept` holds it, which the retainer search cannot see: the parent does not hold it.
        // A hook built without the search (the Thread Sanitizer build) says only what the tree says.
        #if RetainerSearch
        #expect(live.snapshot.node(2)?.reason == "attached under AppCoordinator#1, which does not hold it: nothing the search started from does")
        #else
        #expect(live.snapshot.node(2)?.reason == "still a child of AppCoordinator#1")
        #endif
        #expect(lines.all.contains { $0.contains("Shop") && $0.contains("1 retained") })
        await server.stop()

        let recorded = Recording(bytes: try #require(FileManager.default.contents(atPath: directory + "/stream.ndjson")))
        let replayed = try recorded.sessions[0].snapshot(grace: 0.2)
        #expect(replayed.node(2)?.verdict == .retained)
        #expect(replayed.nodes.map(\.type) == ["AppCoordinator", "CheckoutCoordinator"])
        withExtendedLifetime((app, kept)) {}
    }

    @Test func withoutAnInspectorTheHookKeepsABoundedBacklogAndReportsWhatItDropped() async throws {
        let port = try await freePort()
        let tracer = Tracer()
        tracer.start(app: "Offline", sink: .tcp(host: "127.0.0.1", port: port), options: TraceOptions(backlogCapacity: 20))
        let run = try #require(tracer.runID)
        for index in 0..<100 { tracer.mark("m\(index)") }
        // Nobody confirms them: false after the timeout, short of the second after which the quiet hook would send a
        // heartbeat (dropped too, off the count below).
        #expect(!tracer.flush(timeout: 0.3))

        var options = ListenOptions()
        options.port = port
        let server = InspectorServer(options: options) { _ in }
        _ = try await server.start()
        tracer.end()
        let arrived = await eventually { server.sessions.snapshots(grace: 2).first { $0.snapshot.run == run }?.snapshot.ended == true }
        #expect(arrived)
        let snapshot = try #require(server.sessions.snapshots(grace: 2).first { $0.snapshot.run == run }?.snapshot)
        let dropped = snapshot.warnings.filter { $0.message.contains("dropped") }
        #expect(dropped.count == 1)
        #expect(snapshot.marks.count < 100)
        let count = Int(dropped.first?.message.split(separator: " ").first { Int($0) != nil } ?? "") ?? -1
        #expect(snapshot.marks.count + count == 100, "\(snapshot.marks.count) kept + \(count) dropped")
        await server.stop()
    }

    @Test func twoAppsAtOnceKeepSeparateTrees() async throws {
        var options = ListenOptions()
        options.port = 0
        let server = InspectorServer(options: options) { _ in }
        let port = try await server.start()
        let tracers = [Tracer(), Tracer()]
        for (index, tracer) in tracers.enumerated() {
            tracer.start(app: "App\(index)", sink: .tcp(port: port))
        }
        let roots = (0..<2).map { _ in AppCoordinator() }
        DispatchQueue.concurrentPerform(iterations: 2) { index in
            tracers[index].added(roots[index], to: nil)
            for _ in 0..<(index + 1) * 5 { tracers[index].added(CheckoutCoordinator(), to: roots[index]) }
            tracers[index].end()
        }
        let done = await eventually { server.sessions.snapshots(grace: 2).filter { $0.snapshot.ended }.count == 2 }
        #expect(done)
        let counts = server.sessions.snapshots(grace: 2).map { ($0.snapshot.app, $0.snapshot.nodes.count) }
        #expect(Dictionary(uniqueKeysWithValues: counts) == ["App0": 6, "App1": 11])
        await server.stop()
    }
}

/// A port nobody listens on right now.
func freePort() async throws -> Int {
    var options = ListenOptions()
    options.port = 0
    let probe = InspectorServer(options: options) { _ in }
    let port = try await probe.start()
    await probe.stop()
    return port
}

final class LockedLines: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []

    func append(_ line: String) {
        lock.lock()
        lines.append(line)
        lock.unlock()
    }

    var all: [String] {
        lock.lock()
        defer { lock.unlock() }
        return lines
    }
}
