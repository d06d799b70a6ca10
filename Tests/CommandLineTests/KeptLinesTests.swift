import CoordinatorLens
@_spi(Testing) import CoordinatorTrace
import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// An acknowledgement means kept: a line `listen` refuses (too long) or cannot write (a full disk) is told to the hook,
/// which counts it dropped, and the recording says where it is missing; `flush` is true only when everything was
/// confirmed. A real `coordlens listen`, the hook in this process, real sockets and a real (small) disk.
@Suite(.serialized) struct KeptLinesTests {
    private func temporaryDirectory() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("coordlens-kept-\(UUID())").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// The recording's account of the run: event lines (not `dropped` lines), the counts its `dropped` lines report,
    /// and the events its `gap` lines say it misses, with their warnings.
    private struct Account {
        var events: [EventRecord] = []
        var reportedDropped = 0
        var gaps: [String] = []
        var missing = 0
    }

    private func account(of run: String, at path: String) throws -> Account {
        let recording = Recording(bytes: Array(try #require(FileManager.default.contents(atPath: path))))
        let log = try #require(recording.session(run: run))
        var account = Account()
        for entry in log.entries {
            switch entry {
            case .record(let record):
                if case .dropped(let count) = record.event { account.reportedDropped += count } else { account.events.append(record) }
            case .malformed(let diagnostic):
                let prefix = "the recording misses "
                guard diagnostic.message.hasPrefix(prefix) else { continue }
                account.gaps.append(diagnostic.message)
                account.missing += Int(diagnostic.message.dropFirst(prefix.count).prefix { $0.isNumber }) ?? 0
            default:
                continue
            }
        }
        return account
    }

    /// A mark whose line is over `--max-line-bytes`: refused, told to the hook (dropped 1, unconfirmed 0), a gap line
    /// in its place that says why; every other event recorded, and `check` names the reason.
    @Test(.timeLimit(.minutes(1)))
    func aLineTooLongIsCountedDroppedByTheHookAndMarkedInTheRecording() async throws {
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/rec.ndjson"
        let listen = try ListenProcess(["--record", path, "--max-line-bytes", "100000"])
        let tracer = Tracer()
        tracer.start(app: "Long", sink: .tcp(port: listen.port), options: TraceOptions(endTimeout: 10))
        let run = try #require(tracer.runID)
        HookStreamer(tracer, rounds: 3, perRound: 100, pause: 0).wait()
        tracer.mark(String(repeating: "m", count: 200_000))
        HookStreamer(tracer, rounds: 3, perRound: 100, pause: 0).wait()
        #expect(tracer.flush(timeout: 10), "everything sent was kept or counted")
        let afterFlush = try #require(tracer.counts)
        #expect(afterFlush.dropped == 1, "the refused line is counted as soon as it is confirmed: \(afterFlush)")
        tracer.end()
        #expect(listen.waitForLine(timeout: 20) { $0.contains("[ended]") } != nil, "\(listen.lines)")
        #expect(listen.send(SIGTERM, exitWithin: 10))

        let counts = try #require(tracer.finalCounts(timeout: 30))
        #expect(counts.dropped == 1 && counts.unconfirmed == 0, "\(counts)")
        let account = try account(of: run, at: path)
        #expect(account.events.count + counts.dropped == counts.events, "recorded \(account.events.count) + dropped \(counts.dropped) = \(counts.events)")
        let gap = "the recording misses 1 event of this session here: its recorder did not keep it: line longer than 100000 bytes"
        #expect(account.gaps == [gap], "\(account.gaps)")
        #expect(Set(account.events.map(\.seq)).count == account.events.count)
        #expect(account.events.last?.event == .end)

        let check = try await BuiltProduct.coordlens.runAsync(["check", path, "--allow-undecided"], timeout: 30)
        #expect(check.standardOutput.contains("line longer than 100000 bytes"), "\(check.standardOutput)")
    }

    /// Without `--record` a refused line is counted dropped all the same.
    @Test(.timeLimit(.minutes(1)))
    func aLineTooLongIsCountedDroppedWithoutARecordingToo() throws {
        let listen = try ListenProcess(["--max-line-bytes", "100000"])
        let tracer = Tracer()
        tracer.start(app: "Long", sink: .tcp(port: listen.port), options: TraceOptions(endTimeout: 10))
        HookStreamer(tracer, rounds: 2, perRound: 50, pause: 0).wait()
        tracer.mark(String(repeating: "m", count: 200_000))
        tracer.end()
        let counts = try #require(tracer.finalCounts(timeout: 30))
        #expect(counts.dropped == 1 && counts.unconfirmed == 0, "\(counts)")
        #expect(listen.waitForLine(timeout: 20) { $0.contains("[ended]") } != nil, "\(listen.lines)")
        #expect(listen.send(SIGTERM, exitWithin: 10))
    }

    /// A small tmpfs as the disk, full while the hook streams: only lines written are acknowledged, the rest the hook
    /// counts dropped; the stream ends while the disk is still full, and once space is freed (`resumeWhileRunning`)
    /// or at shutdown, the recording gets its gap line without any new line arriving.
    @Test(.timeLimit(.minutes(1)), arguments: [true, false])
    func aFullDiskAcknowledgesOnlyWhatIsWrittenAndMarksTheGapLater(resumeWhileRunning: Bool) async throws {
        guard getuid() == 0 else {
            print("skipped: mounting a tmpfs needs root (CI runs as root)")
            return
        }
        let mountPoint = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: mountPoint) }
        let mount = try await ProcessRun.runAsync(URL(fileURLWithPath: "/bin/mount"), ["-t", "tmpfs", "-o", "size=256k", "tmpfs", mountPoint])
        try #require(mount.status == 0, "mount: \(mount.standardError)")
        defer { _ = try? ProcessRun.run(URL(fileURLWithPath: "/bin/umount"), [mountPoint]) }
        let path = mountPoint + "/rec.ndjson"
        let filler = mountPoint + "/filler"
        // Leaves about 40 KiB free: a few hundred of the hook's lines.
        #expect(FileManager.default.createFile(atPath: filler, contents: Data(count: 216 * 1024)))

        let listen = try ListenProcess(["--record", path])
        let tracer = Tracer()
        tracer.start(app: "Full", sink: .tcp(port: listen.port), options: TraceOptions(backlogCapacity: 1 << 16, endTimeout: 10))
        let run = try #require(tracer.runID)
        HookStreamer(tracer, rounds: 10, perRound: 300, pause: 0.01).wait()
        #expect(listen.waitForLine(timeout: 10) { $0.hasPrefix("recording stopped") } != nil, "\(listen.lines)")
        tracer.end()
        let counts = try #require(tracer.finalCounts(timeout: 30))
        #expect(counts.unconfirmed == 0, "every line was kept or refused: \(counts)")
        #expect(counts.dropped > 1_000, "the disk refused most of the stream: \(counts)")
        #expect(listen.waitForLine(timeout: 20) { $0.contains("[ended]") || $0.contains("[disconnected]") } != nil, "\(listen.lines)")

        try FileManager.default.removeItem(atPath: filler)
        if resumeWhileRunning {
            // No line arrives any more: the recorder tries the disk again by itself.
            let resumed = listen.waitForLine(timeout: 10) { $0.hasPrefix("recording resumed") }
            #expect(resumed != nil, "\(listen.lines)")
        }
        #expect(listen.send(SIGTERM, exitWithin: 10))

        let account = try account(of: run, at: path)
        #expect(!account.gaps.isEmpty, "a gap line once the disk took lines again")
        #expect(account.events.count + counts.dropped == counts.events, "recorded \(account.events.count) + dropped \(counts.dropped) = \(counts.events)")
        #expect(
            account.missing + account.reportedDropped == counts.dropped,
            "gap \(account.missing) + dropped lines \(account.reportedDropped) = \(counts.dropped)")
        #expect(Set(account.events.map(\.seq)).count == account.events.count, "no line twice")
        let bytes = try #require(FileManager.default.contents(atPath: path))
        #expect(bytes.split(separator: 0x0A).allSatisfy { (try? JSONSerialization.jsonObject(with: Data($0))) is [String: Any] }, "whole lines only")
    }

    /// `flush` against a real `listen`: true, and then the recording already holds every event sent before it.
    @Test(.timeLimit(.minutes(1)))
    func flushIsTrueOnlyOnceTheRecordingHoldsEverything() throws {
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/rec.ndjson"
        let listen = try ListenProcess(["--record", path])
        let tracer = Tracer()
        tracer.start(app: "Flush", sink: .tcp(port: listen.port), options: TraceOptions(endTimeout: 10))
        let run = try #require(tracer.runID)
        HookStreamer(tracer, rounds: 10, perRound: 500, pause: 0).wait()
        tracer.mark("checkpoint")
        #expect(tracer.flush(timeout: 20))
        // Read before `listen` is told anything more: the file as the flush found it.
        let account = try account(of: run, at: path)
        let checkpoint = try #require(account.events.first { $0.event == .mark(label: "checkpoint") }, "the mark before the flush is recorded")
        let before = account.events.filter { $0.seq <= checkpoint.seq }.map(\.seq)
        #expect(before == Array(1...checkpoint.seq), "every line up to it, once each and in order")
        tracer.end()
        #expect(listen.send(SIGTERM, exitWithin: 10))
    }

    /// A receiver that takes the stream and confirms nothing (`answersFirst`: only the session line, as if it then
    /// hung): `flush` is false, and every event sent is counted unconfirmed or dropped, none silently recorded.
    @Test(.timeLimit(.minutes(1)), arguments: [false, true])
    func aReceiverThatNeverConfirmsMakesFlushFalseAndEveryEventUnconfirmed(answersFirst: Bool) throws {
        let receiver = try MuteReceiver(answersFirst: answersFirst)
        defer { receiver.stop() }
        let tracer = Tracer()
        tracer.start(app: "Mute", sink: .tcp(port: receiver.port), options: TraceOptions(endTimeout: 1))
        HookStreamer(tracer, rounds: 4, perRound: 300, pause: 0).wait()
        #expect(!tracer.flush(timeout: 1.5))
        tracer.end()
        let counts = try #require(tracer.finalCounts(timeout: 30))
        #expect(counts.events > 1_000)
        #expect(counts.unconfirmed + counts.dropped == counts.events, "\(counts)")
        #expect(counts.unconfirmed > 0, "\(counts)")
        #expect(receiver.bytesRead > 0)
    }
}

/// A TCP receiver on 127.0.0.1 that reads everything and confirms nothing, or only the session line.
private final class MuteReceiver: @unchecked Sendable {
    let port: Int
    private let listener: Int32
    private let lock = NSLock()
    private var read = 0
    private var stopped = false
    private var clients: [Int32] = []
    private let answersFirst: Bool

    var bytesRead: Int { lock.withLock { read } }

    init(answersFirst: Bool) throws {
        self.answersFirst = answersFirst
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.listener = listener
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(listener, 16) == 0 else { throw ListenProcessFailure(message: "receiver: cannot listen") }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        port = Int(UInt16(bigEndian: address.sin_port))
        Thread { [self] in acceptForever() }.start()
    }

    func stop() {
        let open = lock.withLock {
            stopped = true
            return clients
        }
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
        for client in open { shutdown(client, Int32(SHUT_RDWR)) }
    }

    private func acceptForever() {
        while true {
            let client = accept(listener, nil, nil)
            guard client >= 0 else {
                if lock.withLock({ stopped }) { return }
                continue
            }
            lock.withLock { clients.append(client) }
            Thread { [self] in readForever(client) }.start()
        }
    }

    private func readForever(_ client: Int32) {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var answered = !answersFirst
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(client, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { break }
            lock.withLock { read += count }
            if !answered, buffer[..<count].contains(0x0A) {
                answered = true
                _ = Array("{\"ack\":0}\n".utf8).withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            }
        }
        lock.withLock { clients.removeAll { $0 == client } }
        close(client)
    }
}
