import CoordinatorLens
import CoordinatorLensServer
import Foundation
import TestSupport
import Testing

/// `listen`'s limits, in process, over real sockets on 127.0.0.1: what happens at each one, and that it is said.
@Suite(.serialized) struct ListenLimitsTests {
    private func temporaryDirectory() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("coordlens-limits-\(UUID())").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// Polls `condition` for up to `seconds`, refreshing the server between tries as `run` would.
    /// Status lines follow pictures, and pictures wait for the process's one libgvc owner, which other suites running
    /// at the same time may keep busy with big drawings for many seconds: so the wait is long, and ends as soon as the
    /// condition holds.
    private func eventually(_ server: InspectorServer, _ seconds: Double = 60, _ condition: () -> Bool) async -> Bool {
        await waitUntil(seconds: seconds, every: 0.05) { () async in
            server.refresh()
            return condition()
        }
    }

    private func sessionLine(app: String = "Limits", run: String) -> String {
        let encoded = String(decoding: try! JSONEncoder().encode(["event": "session", "app": app, "run": run]), as: UTF8.self)
        return encoded + "\n"
    }

    /// A flood of new coordinators stops growing the session's memory at `maxCoordinators`, says so once, keeps
    /// applying events to the coordinators it holds, and records everything.
    @Test func aSessionKeepsAtMostItsCoordinatorLimitAndSaysSo() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var options = ListenOptions()
        options.port = 0
        options.recordPath = directory + "/rec.ndjson"
        options.maxCoordinators = 100
        let server = InspectorServer(options: options) { _ in }
        let port = try await server.start()
        let connection = try RawConnection(port: port)
        try connection.send(sessionLine(run: "flood"))
        var text = #"{"seq":1,"t":0,"event":"add","id":1,"type":"Root"}"# + "\n"
        for id in 2...150 { text += #"{"seq":\#(id),"t":0.1,"event":"add","id":\#(id),"type":"Leaf","parent":1}"# + "\n" }
        text += #"{"seq":151,"t":0.2,"event":"dismiss","id":2}"# + "\n" + #"{"seq":152,"t":5,"event":"end"}"# + "\n"
        try connection.send(text)
        connection.close()
        #expect(await eventually(server) { server.sessions.finishedCount == 1 })
        let live = try #require(server.sessions.snapshots(grace: 2).first { $0.snapshot.run == "flood" })
        #expect(live.snapshot.nodes.count == 100)
        #expect(live.snapshot.node(2)?.verdict == .retained, "events for the coordinators it holds still apply")
        let limit = live.snapshot.warnings.filter { $0.message.contains("limit of 100 coordinators") }
        #expect(limit.count == 1)
        #expect(limit.first?.line == 102, "said at the first line past the limit")
        await server.stop()
        let recorded = try String(contentsOfFile: directory + "/rec.ndjson", encoding: .utf8)
        #expect(recorded.split(separator: "\n").count == 153, "the recording keeps every line")
    }

    @Test func overlongAndMalformedLinesAreCountedKeptUpToTheCapAndNeverRecorded() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var options = ListenOptions()
        options.port = 0
        options.recordPath = directory + "/rec.ndjson"
        options.maxLineBytes = 1_024
        options.maxKeptMalformed = 3
        let lines = LockedLines()
        let server = InspectorServer(options: options) { lines.append($0) }
        let port = try await server.start()

        let connection = try RawConnection(port: port)
        try connection.send(sessionLine(run: "capped"))
        try connection.send(#"{"seq":1,"t":0,"event":"add","id":1,"type":"Root"}"# + "\n")
        try connection.send(String(repeating: "x", count: 10_000) + "\n")
        for index in 0..<5 { try connection.send("garbage \(index)\n") }
        try connection.send(#"{"seq":2,"t":0.1,"event":"end"}"# + "\n")
        connection.close()

        let ended = await eventually(server) { server.sessions.finishedCount == 1 }
        #expect(ended)
        let live = try #require(server.sessions.snapshots(grace: 2).first { $0.snapshot.run == "capped" })
        #expect(live.unreadableLines == 6)
        #expect(live.snapshot.nodes.count == 1)
        let warnings = live.snapshot.warnings.map(\.message)
        #expect(warnings.count == 4, "three kept, then one saying the rest are only counted: \(warnings)")
        #expect(warnings.first?.contains("longer than 1024 bytes") == true)
        #expect(warnings.last?.contains("only counted") == true)
        await server.stop()

        let recorded = String(decoding: try #require(FileManager.default.contents(atPath: directory + "/rec.ndjson")), as: UTF8.self)
        let recordedLines = recorded.split(separator: "\n")
        #expect(recordedLines.count == 3, "the session line and two events, nothing unreadable: \(recordedLines)")
        #expect(recordedLines.allSatisfy { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) is [String: Any] })
        #expect(lines.all.contains { $0.contains("6 unreadable lines") })
    }

    @Test func statusLinesTellRunIdsThatShareAPrefixApart() async throws {
        var options = ListenOptions()
        options.port = 0
        let lines = LockedLines()
        let server = InspectorServer(options: options) { lines.append($0) }
        let port = try await server.start()
        let long = String(repeating: "L", count: 45)
        let runs = ["crowd-174", "crowd-175", "crowd-176", long + "-a", long + "-b"]
        for run in runs {
            let connection = try RawConnection(port: port)
            try connection.send(sessionLine(app: "Crowd", run: run))
            try connection.send(#"{"seq":1,"t":0,"event":"end"}"# + "\n")
            connection.close()
        }
        let printed = await eventually(server) { lines.all.filter { $0.contains("[ended]") }.count >= runs.count }
        #expect(printed, "\(lines.all)")
        let names = Set(lines.all.filter { $0.contains("[ended]") }.map { $0.components(separatedBy: " [ended]")[0] })
        #expect(names.count == runs.count, "one name per run: \(names)")
        for run in runs.prefix(3) { #expect(names.contains("Crowd \(run)")) }
        await server.stop()
    }

    @Test func runIdsThatLookAlikeGetAPictureEach() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var options = ListenOptions()
        options.port = 0
        options.outputDirectory = directory
        let server = InspectorServer(options: options) { _ in }
        let port = try await server.start()
        let shared = String(repeating: "r", count: 80)
        let runs = ["a/b", "a_b", "a:b", shared + "-one", shared + "-two", "../../escape"]
        for run in runs {
            let connection = try RawConnection(port: port)
            try connection.send(sessionLine(run: run))
            try connection.send(#"{"seq":1,"t":0,"event":"end"}"# + "\n")
            connection.close()
        }
        let names = Set(runs.map { FileName.forRun($0) + ".svg" })
        #expect(names.count == runs.count)
        let drawn = await eventually(server) {
            let files = Set((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [])
            return files == names
                && names.allSatisfy { name in
                    (FileManager.default.contents(atPath: directory + "/" + name)?.count ?? 0) > 0
                }
        }
        #expect(drawn, "one picture per run, all inside the folder")
        for run in runs {
            let svg = String(decoding: FileManager.default.contents(atPath: directory + "/" + FileName.forRun(run) + ".svg") ?? Data(), as: UTF8.self)
            // Graphviz writes `-` as `&#45;` in SVG text.
            #expect(svg.contains("run " + run.replacingOccurrences(of: "-", with: "&#45;")), "the picture of \(run) shows its run")
        }
        await server.stop()
    }

    @Test func sessionsWithoutAConnectionAreEvictedAndTheirPictureStays() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var options = ListenOptions()
        options.port = 0
        options.outputDirectory = directory
        options.evictAfter = 0.5
        options.refreshInterval = 0.05
        let lines = LockedLines()
        let server = InspectorServer(options: options) { lines.append($0) }
        let port = try await server.start()
        let serving = Task { await server.run() }

        let staying = try RawConnection(port: port)
        try staying.send(sessionLine(run: "staying"))
        let leaving = try RawConnection(port: port)
        try leaving.send(sessionLine(run: "leaving"))
        try leaving.send(#"{"seq":1,"t":0,"event":"add","id":1,"type":"Root"}"# + "\n" + #"{"seq":2,"t":0,"event":"end"}"# + "\n")
        leaving.close()

        // Both conditions: right after the connections open, "leaving" may simply not have been read yet.
        let evicted = await eventually(server) {
            server.sessions.runs == ["staying"] && lines.all.contains { $0.contains("evicted from memory") }
        }
        #expect(evicted, "runs held: \(server.sessions.runs)")
        #expect(lines.all.contains { $0.contains("leavi") && $0.contains("evicted from memory") })
        let svg = String(decoding: FileManager.default.contents(atPath: directory + "/" + FileName.forRun("leaving") + ".svg") ?? Data(), as: UTF8.self)
        #expect(svg.contains(#"id="c1""#), "the last picture of the evicted run is still on disk")
        #expect(server.sessions.finishedCount == 1)
        serving.cancel()
        await serving.value
        withExtendedLifetime(staying) {}
    }

    @Test func aSecondConnectionWithARunInUseSharesItsTreeWithAWarning() async throws {
        var options = ListenOptions()
        options.port = 0
        let lines = LockedLines()
        let server = InspectorServer(options: options) { lines.append($0) }
        let port = try await server.start()
        let first = try RawConnection(port: port)
        try first.send(sessionLine(run: "twice"))
        try first.send(#"{"seq":1,"t":0,"event":"add","id":1,"type":"Root"}"# + "\n")
        let arrived = await eventually(server) { server.sessions.snapshots(grace: 2).first?.events == 1 }
        #expect(arrived)
        let second = try RawConnection(port: port)
        try second.send(sessionLine(run: "twice"))
        let warned = await eventually(server) {
            server.sessions.snapshots(grace: 2).first?.snapshot.warnings.contains { $0.message.contains("second connection") } == true
        }
        #expect(warned)
        #expect(lines.all.contains { $0.contains("already in use") })
        #expect(server.sessions.runs == ["twice"])
        await server.stop()
        withExtendedLifetime((first, second)) {}
    }

    @Test func statusLinesEscapeControlCharactersFromTheNetwork() async throws {
        var options = ListenOptions()
        options.port = 0
        let lines = LockedLines()
        let server = InspectorServer(options: options) { lines.append($0) }
        let port = try await server.start()
        let connection = try RawConnection(port: port)
        try connection.send(sessionLine(app: "Evil\u{1B}[2J\u{7}\r\nFAKE line\u{0}\u{9B}", run: "\u{1B}]0;x\u{7}"))
        try connection.send(#"{"seq":1,"t":0,"event":"end"}"# + "\n")
        connection.close()
        let printed = await eventually(server) { lines.all.contains { $0.contains("Evil") } }
        #expect(printed)
        for line in lines.all {
            #expect(!line.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }, "\(line.debugDescription)")
        }
        let evil = try #require(lines.all.first { $0.contains("Evil") })
        #expect(evil.hasPrefix(#"Evil\u{1B}[2J\u{7}\r\nFAKE line\u{0}\u{9B} \u{1B}]0;x\u{7} ["#))
        await server.stop()
    }

    /// Junk on the hook port (a byte and a close, an event with no session line first) is closed and counted, never
    /// a session: it cannot take a real session's place, and a flood of it says so in a few lines, not one each.
    @Test func connectionsWhoseFirstLineIsNoSessionLineNeverBecomeSessions() async throws {
        var options = ListenOptions()
        options.port = 0
        let lines = LockedLines()
        let server = InspectorServer(options: options) { lines.append($0) }
        let port = try await server.start()
        for _ in 0..<50 {
            let junk = try RawConnection(port: port)
            try junk.send(Array("x".utf8))
            junk.close()
        }
        let eventFirst = try RawConnection(port: port)
        try eventFirst.send(#"{"seq":1,"t":0,"event":"add","id":1,"type":"Root"}"# + "\n")
        eventFirst.close()
        #expect(await eventually(server) { server.sessions.junkConnectionCount == 51 }, "\(server.sessions.junkConnectionCount)")
        #expect(server.sessions.runs.isEmpty, "\(server.sessions.runs)")

        let hook = try RawConnection(port: port)
        try hook.send(sessionLine(run: "real") + #"{"seq":1,"t":0,"event":"end"}"# + "\n")
        hook.close()
        #expect(await eventually(server) { server.sessions.finishedCount == 1 })
        #expect(server.sessions.runs == ["real"])
        let said = lines.all.filter { $0.contains("whose first line was no session line") }
        #expect(said.count == 2, "said at 1 and 10 of 51: \(said)")
        await server.stop()
    }

    @Test func pastTheConnectionLimitNewConnectionsAreClosedAndOpenOnesCarryOn() async throws {
        var options = ListenOptions()
        options.port = 0
        options.maxConnections = 2
        let lines = LockedLines()
        let server = InspectorServer(options: options) { lines.append($0) }
        let port = try await server.start()
        let kept = try (0..<2).map { index in
            let connection = try RawConnection(port: port)
            try connection.send(sessionLine(run: "kept\(index)"))
            return connection
        }
        let opened = await eventually(server) { server.sessions.runs.count == 2 }
        #expect(opened)
        let extra = try RawConnection(port: port)
        try? extra.send(sessionLine(run: "extra"))
        let refused = await eventually(server) { lines.all.contains { $0.contains("connection limit of 2 reached") } }
        #expect(refused)
        for connection in kept { try connection.send(#"{"seq":1,"t":0,"event":"end"}"# + "\n") }
        kept.forEach { $0.close() }
        let ended = await eventually(server) { server.sessions.finishedCount == 2 }
        #expect(ended, "the connections already open carry on")
        #expect(!server.sessions.runs.contains("extra"))
        let again = await eventually(server) { lines.all.contains { $0.contains("accepting connections again") } }
        #expect(again)
        await server.stop()
        withExtendedLifetime(extra) {}
    }

    @Test func pastTheSessionLimitTheOldestDisconnectedSessionMakesRoomOrTheNewRunIsRefused() async throws {
        var options = ListenOptions()
        options.port = 0
        options.maxSessions = 2
        let lines = LockedLines()
        let server = InspectorServer(options: options) { lines.append($0) }
        let port = try await server.start()
        let serving = Task { await server.run() }
        let gone = try RawConnection(port: port)
        try gone.send(sessionLine(run: "gone"))
        gone.close()
        let staying = try RawConnection(port: port)
        try staying.send(sessionLine(run: "staying"))
        let held = await eventually(server) {
            server.sessions.runs == ["gone", "staying"] && server.sessions.snapshots(grace: 2).filter(\.connected).count == 1
        }
        #expect(held)

        let third = try RawConnection(port: port)
        try third.send(sessionLine(run: "third"))
        let roomMade = await eventually(server) { server.sessions.runs == ["staying", "third"] }
        #expect(roomMade, "runs held: \(server.sessions.runs)")
        let said = await eventually(server) { lines.all.contains { $0.contains("gone") && $0.contains("to make room") } }
        #expect(said)

        let fourth = try RawConnection(port: port)
        try? fourth.send(sessionLine(run: "fourth"))
        let refused = await eventually(server) { lines.all.contains { $0.contains("session limit of 2 reached") && $0.contains("fourth") } }
        #expect(refused)
        #expect(server.sessions.runs == ["staying", "third"])
        serving.cancel()
        await serving.value
        withExtendedLifetime((staying, third, fourth)) {}
    }

    /// A long `listen` keeps the spellings of string ids only for the sessions it still holds: those of evicted
    /// sessions are freed, the page finds a held one by its spelling, and a spelling a request names is not kept.
    @Test func aLongListenFreesTheStringIdsOfTheSessionsItEvicts() async throws {
        var options = ListenOptions()
        options.port = 0
        options.httpPort = 0
        options.maxSessions = 3
        let server = InspectorServer(options: options) { _ in }
        let port = try await server.start()
        let page = try #require(server.pagePort)
        let tag = UUID().uuidString
        func spelling(_ session: Int, _ coordinator: Int) -> String { "\(tag)-\(session)-\(coordinator)" }
        func inUse(_ session: Int) -> Int { (0..<200).count { CoordinatorID(existingText: spelling(session, $0)) != nil } }
        let sessions = 12
        for session in 0..<sessions {
            let connection = try RawConnection(port: port)
            var text = sessionLine(app: "Strings", run: "strings-\(session)")
            for coordinator in 0..<200 {
                let parent = coordinator == 0 ? "" : #","parent":"\#(spelling(session, 0))""#
                text += #"{"seq":\#(coordinator + 1),"t":0.1,"event":"add","id":"\#(spelling(session, coordinator))","type":"Flow"\#(parent)}"# + "\n"
            }
            text += #"{"seq":201,"t":5,"event":"end"}"# + "\n"
            try connection.send(text)
            connection.close()
            #expect(await eventually(server) { server.sessions.finishedCount == session + 1 }, "session \(session) ended")
        }
        #expect(server.sessions.runs == (sessions - 3..<sessions).map { "strings-\($0)" })
        let freed = await eventually(server) { (0..<sessions - 3).allSatisfy { inUse($0) == 0 } }
        #expect(freed, "evicted sessions' spellings still kept: \((0..<sessions - 3).map(inUse))")
        #expect((sessions - 3..<sessions).map(inUse) == [200, 200, 200], "the held sessions' spellings stay")

        func get(_ path: String) throws -> String {
            let connection = try RawConnection(port: page)
            defer { connection.close() }
            try connection.send("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(page)\r\nConnection: close\r\n\r\n")
            return try connection.receiveUntilQuiet(5, seconds: 20)
        }
        let held = try get("/api/coordinator?run=strings-11&sid=\(spelling(11, 7))")
        #expect(held.hasPrefix("HTTP/1.1 200") && held.contains(#""add""#), "\(held.prefix(600))")
        let unknown = "never-sent-\(tag)"
        let answer = try get("/api/coordinator?run=strings-11&sid=\(unknown)")
        #expect(answer.hasPrefix("HTTP/1.1 200") && answer.hasSuffix("\r\n\r\n[]"), "\(answer.prefix(600))")
        #expect(CoordinatorID(existingText: unknown) == nil, "a request's spelling is looked up, not kept")
        await server.stop()
    }
}
