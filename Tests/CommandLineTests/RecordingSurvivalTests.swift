import CoordinatorLens
import Foundation
import TestSupport
import Testing

/// `coordlens listen --record` as a real process: a restart never empties a recording, and a full disk leaves it
/// line-complete and says how much is missing once the disk takes lines again.
@Suite(.serialized) struct RecordingSurvivalTests {
    private func temporaryDirectory() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("coordlens-survival-\(UUID())").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    private static func session(_ run: String) -> String {
        #"{"event":"session","v":1,"app":"Survival","run":"\#(run)"}"# + "\n"
    }

    /// Event lines `seqs`, the first one the root, the others its children.
    private static func events(_ seqs: ClosedRange<Int>) -> String {
        seqs.map { seq in
            seq == 1
                ? #"{"seq":1,"t":0,"event":"add","id":1,"type":"Root"}"#
                : #"{"seq":\#(seq),"t":\#(Double(seq) / 1000),"event":"add","id":\#(seq),"type":"Child","parent":1}"#
        }.joined(separator: "\n") + "\n"
    }

    /// A run split over two recordings (a `listen` restarted onto another file) is judged as one session by `check`:
    /// the first file alone leaves the child undecided, the second alone knows no coordinator, both together retain it.
    @Test func aRunSplitOverTwoFilesIsJudgedAsOneSession() async throws {
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let (first, second, other) = (folder + "/before.ndjson", folder + "/after.ndjson", folder + "/other.ndjson")
        try (Self.session("split") + Self.events(1...2) + #"{"seq":3,"t":0.1,"event":"dismiss","id":2}"# + "\n")
            .write(toFile: first, atomically: true, encoding: .utf8)
        try (Self.session("split") + #"{"seq":4,"t":5,"event":"end"}"# + "\n").write(toFile: second, atomically: true, encoding: .utf8)
        try (Self.session("apart") + Self.events(1...1) + #"{"seq":2,"t":1,"event":"end"}"# + "\n").write(toFile: other, atomically: true, encoding: .utf8)

        let alone = try await BuiltProduct.coordlens.runAsync(["check", first], timeout: 60)
        #expect(alone.standardOutput.contains("UNDECIDED Child#2"), "\(alone.standardOutput)")
        let joined = try await BuiltProduct.coordlens.runAsync(["check", "--format", "json", first, other, second], timeout: 60)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(joined.standardOutput.utf8)) as? [String: Any])
        let sessions = try #require(report["sessions"] as? [[String: Any]])
        #expect(sessions.map { $0["run"] as? String } == ["split", "apart"], "one session per run, in the order first seen")
        let text = try await BuiltProduct.coordlens.runAsync(["check", first, other, second], timeout: 60)
        #expect(text.status == 1)
        #expect(text.standardOutput.contains("RETAINED Child#2: still a child of Root#1"), "\(text.standardOutput)")
        #expect(text.standardOutput.contains("1 retained in 2 sessions"), "\(text.standardOutput)")
    }

    /// A restart on the same file, after a `kill -9` that left a cut line: the first run stays, the cut line stays a
    /// line of its own, and a run that continues across the restart reads as one session.
    @Test(.timeLimit(.minutes(1)))
    func aRestartAppendsAndARunThatContinuesReadsAsOneSession() async throws {
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/rec.ndjson"

        let first = try ListenProcess(["--record", path])
        let before = try RawConnection(port: first.port)
        try before.send(Self.session("kept") + Self.events(1...50) + #"{"seq":51,"t":0.1,"event":"end"}"# + "\n")
        before.close()
        let going = try RawConnection(port: first.port)
        try going.send(Self.session("going") + Self.events(1...20))
        #expect(first.waitForLine(timeout: 10) { $0.contains("going") } != nil)
        // Killed once the recording holds the going run's 20 events: what a restart must append to.
        let recorded = first.waitForFile(path, timeout: 20) { Recording(bytes: Array($0.utf8)).session(run: "going")?.entries.count == 20 }
        #expect(recorded != nil, "the going run's 20 events recorded before the kill")
        #expect(first.send(SIGKILL, exitWithin: 5))
        going.close()
        let written = try #require(FileManager.default.contents(atPath: path))
        #expect(written.count > 0)
        // What a process killed in the middle of a write leaves behind.
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(#"{"seq":21,"t":0.02,"ev"#.utf8))
        try handle.close()

        let second = try ListenProcess(["--record", path])
        // The cut line (22 bytes) and the newline that completes it count.
        let appending = second.waitForLine(timeout: 5) { $0.hasPrefix("recording: appending to") }
        #expect(appending?.replacingOccurrences(of: ",", with: "").contains("\(written.count + 23) bytes") == true, "\(second.lines)")
        let resumed = try RawConnection(port: second.port)
        try resumed.send(Self.session("going") + Self.events(21...40) + #"{"seq":41,"t":0.1,"event":"end"}"# + "\n")
        resumed.close()
        #expect(second.waitForLine(timeout: 10) { $0.contains("going") && $0.contains("[ended]") } != nil, "\(second.lines)")
        #expect(second.send(SIGTERM, exitWithin: 10))

        let bytes = try #require(FileManager.default.contents(atPath: path))
        #expect(bytes.prefix(written.count) == written, "the first listen's recording is still there, byte for byte")
        let recording = Recording(bytes: Array(bytes))
        let kept = try #require(recording.session(run: "kept"))
        let keptSnapshot = try kept.snapshot()
        #expect(keptSnapshot.ended && keptSnapshot.nodes.count == 50 && keptSnapshot.warnings.isEmpty)
        let continued = try #require(recording.session(run: "going"))
        let snapshot = try continued.snapshot()
        #expect(snapshot.ended && snapshot.nodes.count == 40, "one session across the restart")
        #expect(snapshot.warnings.map(\.message).count == 1, "only the cut line: \(snapshot.warnings)")
        #expect(recording.sessions.count == 2)

        let check = try await BuiltProduct.coordlens.runAsync(["check", path, "--allow-undecided"], timeout: 30)
        #expect(check.standardOutput.contains("going"), "\(check.standardOutput)")
        #expect(recording.sessions.allSatisfy { $0.header.recorder == "listen" }, "the recorder marks every run's session line")
        #expect(!check.standardError.contains("note:"), "many runs in one file is listen --record's format: \(check.standardError)")
    }

    /// A small tmpfs as the disk: writing fails mid-stream, and later succeeds again once space is freed.
    @Test(.timeLimit(.minutes(1)))
    func aFullDiskLeavesWholeLinesAndSaysHowManyEventsAreMissingWhenItResumes() async throws {
        let mountPoint = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: mountPoint) }
        guard getuid() == 0 else {
            print("skipped: mounting a tmpfs needs root (CI runs as root)")
            return
        }
        let mount = try await ProcessRun.runAsync(URL(fileURLWithPath: "/bin/mount"), ["-t", "tmpfs", "-o", "size=256k", "tmpfs", mountPoint])
        try #require(mount.status == 0, "mount: \(mount.standardError)")
        defer { _ = try? ProcessRun.run(URL(fileURLWithPath: "/bin/umount"), [mountPoint]) }
        let path = mountPoint + "/rec.ndjson"
        let filler = mountPoint + "/filler"
        // Leaves about 40 KiB free.
        #expect(FileManager.default.createFile(atPath: filler, contents: Data(count: 216 * 1024)))

        let listen = try ListenProcess(["--record", path])
        let connection = try RawConnection(port: listen.port)
        try connection.send(Self.session("full"))
        var sent = 0
        // About 90 bytes a line: 40 KiB fill up within the first 500, then 500 more while the disk is full.
        for part in 0..<10 {
            try connection.send(Self.events((part * 100 + 1)...(part * 100 + 100)))
            sent += 100
            // clock: parts a tenth of a second apart, so the disk fills mid-stream, with more to come while it is full.
            try await Task.sleep(for: .seconds(0.1))
        }
        let stopped = listen.waitForLine(timeout: 10) { $0.hasPrefix("recording stopped") }
        #expect(stopped != nil, "\(listen.lines)")
        try FileManager.default.removeItem(atPath: filler)
        // clock: the recorder tries a refusing disk again at most once a second: that second passes before the last lines.
        try await Task.sleep(for: .seconds(1.2))
        try connection.send(Self.events(1_001...1_100) + #"{"seq":1101,"t":2,"event":"end"}"# + "\n")
        sent += 101
        // The disk may stop and resume the recording more than once while it is nearly full (a retry that finds room
        // for the gap line and a few more, then none): how often depends on how the parts and the retries interleave,
        // which no event orders. What must hold is that it ends resumed, and every event is recorded or counted.
        func lastStatus() -> String? { listen.lines.last { $0.hasPrefix("recording stopped") || $0.hasPrefix("recording resumed") } }
        waitUntil(seconds: 10) { lastStatus()?.hasPrefix("recording resumed") == true }
        let resumed = lastStatus()
        #expect(resumed?.hasPrefix("recording resumed") == true, "\(listen.lines)")
        connection.close()
        #expect(listen.send(SIGTERM, exitWithin: 10))

        let bytes = try #require(FileManager.default.contents(atPath: path))
        #expect(bytes.last == 0x0A)
        let lines = bytes.split(separator: 0x0A)
        #expect(lines.allSatisfy { (try? JSONSerialization.jsonObject(with: Data($0))) is [String: Any] }, "whole lines only")
        let recording = Recording(bytes: Array(bytes))
        let log = try #require(recording.session(run: "full"))
        let recorded = log.entries.filter { if case .record = $0 { true } else { false } }.count
        let gap = log.entries.compactMap { entry -> Int? in
            guard case .malformed(let diagnostic) = entry, diagnostic.message.hasPrefix("the recording misses ") else { return nil }
            return Int(diagnostic.message.dropFirst("the recording misses ".count).prefix { $0.isNumber })
        }
        #expect(!gap.isEmpty, "a gap line: \(log.entries.count) entries")
        #expect(recorded + gap.reduce(0, +) == sent, "recorded \(recorded) + missing \(gap) = sent \(sent)")
        #expect(resumed?.contains("\(gap.last ?? -1) event") == true, "the last resume counts the last gap: \(resumed ?? "") \(gap)")
        #expect(log.entries.contains { if case .record(let record) = $0 { record.event == .end } else { false } })
    }
}
