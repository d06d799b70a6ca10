import CoordinatorLens
@_spi(Testing) import CoordinatorTrace
import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `.file(path)` onto what is not a plain file: a device, a symlink to one and a FIFO are written in place, never
/// replaced by a regular file (as root, `.file("/dev/null")` once turned the machine's /dev/null into one).
@Suite struct DeviceOutputTests {
    /// Runs `body` with a temporary folder, then removes it with what is in it.
    static func inFolder(_ body: (String) throws -> Void) throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("trace-devices-\(UUID())").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: path) }
        try body(path)
    }

    /// A character device that is the one /dev/null is, made in `folder`; nil, saying why, when mknod is refused.
    static func nullDevice(in folder: String) -> String? {
        let path = folder + "/null"
        guard mknod(path, S_IFCHR | 0o666, makedev(1, 3)) == 0 else {
            print("skipped: mknod \(path) failed (\(String(cString: strerror(errno)))); making a device needs root")
            return nil
        }
        return path
    }

    /// `makedev(3)`, which Swift does not import (a macro): glibc's encoding, or Darwin's.
    static func makedev(_ major: UInt32, _ minor: UInt32) -> dev_t {
        #if canImport(Glibc)
        let (major, minor) = (dev_t(major), dev_t(minor))
        return (major & 0xfff) << 8 | (major & ~0xfff) << 32 | minor & 0xff | (minor & ~0xff) << 12
        #else
        return dev_t(bitPattern: major << 24 | minor)
        #endif
    }

    /// What stands at `path` itself (`lstat`), or, following symlinks, what they lead to (`stat`).
    static func kind(_ path: String, following: Bool = false) -> mode_t? {
        var status = stat()
        guard (following ? stat(path, &status) : lstat(path, &status)) == 0 else { return nil }
        return status.st_mode & S_IFMT
    }

    /// One short session into `sink`.
    static func run(_ app: String, into sink: any TraceSink) -> TraceCounts? {
        let tracer = Tracer()
        tracer.start(app: app, sink: sink)
        let coordinator = Coordinator()
        tracer.added(coordinator, to: nil)
        tracer.end()
        return tracer.finalCounts(timeout: 30)
    }

    /// A FIFO made in `folder`.
    static func fifo(in folder: String) throws -> String {
        let path = folder + "/trace.fifo"
        try #require(mkfifo(path, 0o600) == 0, "mkfifo \(path): \(String(cString: strerror(errno)))")
        return path
    }

    /// A reader of `fifo`, opened without waiting for a writer.
    static func reader(of fifo: String) throws -> Int32 {
        let descriptor = open(fifo, O_RDONLY | O_NONBLOCK)
        try #require(descriptor >= 0, "open \(fifo): \(String(cString: strerror(errno)))")
        return descriptor
    }

    /// Reads what the FIFO's reader `descriptor` (non-blocking) holds now.
    static func drain(_ descriptor: Int32) -> String {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count > 0 { bytes += chunk[..<count] } else if count < 0, errno == EINTR { continue } else { break }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test func aCharacterDeviceStaysACharacterDevice() throws {
        try Self.inFolder { folder in
            guard let device = Self.nullDevice(in: folder) else { return }
            for appending in [false, true] {
                let counts = Self.run("Device", into: .file(device, appending: appending))
                #expect(Self.kind(device) == S_IFCHR, "appending: \(appending)")
                #expect(counts?.dropped == 0, "the device took every line (appending: \(appending))")
            }
        }
    }

    @Test func aSymlinkToADeviceStaysASymlinkToThatDevice() throws {
        try Self.inFolder { folder in
            guard let device = Self.nullDevice(in: folder) else { return }
            let link = folder + "/trace.ndjson"
            try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: device)
            let counts = Self.run("Linked", into: .file(link))
            #expect(Self.kind(link) == S_IFLNK)
            #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == device)
            #expect(Self.kind(link, following: true) == S_IFCHR)
            #expect(Self.kind(device) == S_IFCHR)
            #expect(counts?.dropped == 0)
        }
    }

    @Test func aFIFOWithAReaderGetsTheSession() throws {
        try Self.inFolder { folder in
            let fifo = try Self.fifo(in: folder)
            let reader = try Self.reader(of: fifo)
            defer { close(reader) }
            _ = Self.run("Piped", into: .file(fifo))
            #expect(Self.kind(fifo) == S_IFIFO)
            let recording = Recording(bytes: Array(Self.drain(reader).utf8))
            #expect(recording.sessions.map(\.header.app) == ["Piped"])
            #expect(recording.sessions.first.map(events) == [.add(id: 1, type: "Coordinator", parent: nil), .end])
        }
    }

    /// A reader slower than the app, with lines longer than a pipe takes at once: a line the full pipe took part of
    /// is finished before the next one, so every line arrives whole, none cut or repeated.
    @Test func aSlowReaderGetsWholeLines() throws {
        try Self.inFolder { folder in
            let fifo = try Self.fifo(in: folder)
            let reader = try Self.reader(of: fifo)
            defer { close(reader) }
            let tracer = Tracer()
            tracer.start(app: "Slow", sink: .file(fifo))
            #expect(tracer.flush(), "the sink has opened the FIFO")
            let received = SlowReader(reader)
            let label = String(repeating: "x", count: 10_000)
            for _ in 0..<40 { tracer.mark(label) }
            tracer.end()
            let text = try #require(received.wait(seconds: 30), "the hook closed the FIFO")
            let lines = text.split(separator: "\n")
            let whole = lines.filter { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) is [String: Any] }
            #expect(whole.count == lines.count, "every line whole: \(lines.count - whole.count) are not")
            #expect(text.hasSuffix("\n"))
            let recording = Recording(bytes: Array(text.utf8))
            #expect(recording.sessions.map(\.header.app) == ["Slow"])
            let marks = lines.filter { $0.contains(#""event":"mark""#) }.count
            #expect(marks + (tracer.counts?.dropped ?? 0) >= 40, "each mark recorded or counted dropped")
        }
    }

    /// No reader: nothing blocks (lines wait in the bounded backlog, then count as dropped) and the FIFO stays one.
    @Test func aFIFOWithoutAReaderNeitherBlocksNorIsReplaced() throws {
        try Self.inFolder { folder in
            let fifo = try Self.fifo(in: folder)
            let started = Date()
            _ = Self.run("Unread", into: .file(fifo))
            #expect(Date().timeIntervalSince(started) < 30, "end() returned")
            #expect(Self.kind(fifo) == S_IFIFO)
        }
    }

    /// A reader that goes away mid-session breaks the pipe: the app is not killed by SIGPIPE, and the FIFO stays one.
    @Test func aReaderThatLeavesDoesNotKillTheApp() throws {
        try Self.inFolder { folder in
            let fifo = try Self.fifo(in: folder)
            let reader = try Self.reader(of: fifo)
            let tracer = Tracer()
            tracer.start(app: "Left", sink: .file(fifo))
            let first = Coordinator()
            tracer.added(first, to: nil)
            #expect(tracer.flush())
            let before = Self.drain(reader)
            close(reader)
            let second = Coordinator()
            tracer.added(second, to: first)
            _ = tracer.flush()
            tracer.end()
            #expect(before.contains(#""app":"Left""#))
            #expect(Self.kind(fifo) == S_IFIFO)
            withExtendedLifetime((first, second)) {}
        }
    }
}

/// Reads a FIFO on a thread of its own, 4 KiB a millisecond at most, until the writer closes it.
private final class SlowReader: @unchecked Sendable {
    private let lock = NSLock()
    private var bytes: [UInt8] = []
    private var done = false

    init(_ descriptor: Int32) {
        Thread { [self] in
            var chunk = [UInt8](repeating: 0, count: 4_096)
            while true {
                var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
                _ = poll(&poller, 1, 100)
                let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if count == 0 { break }
                if count > 0 { lock.withLock { bytes += chunk[..<count] } }
                // clock: the slow reader is the fault: 4 KiB a millisecond at most, so the hook's writes to the FIFO back up.
                usleep(1_000)
            }
            lock.withLock { done = true }
        }.start()
    }

    /// What it read, once the writer closed the FIFO; nil if it had not within `seconds`.
    func wait(seconds: Double) -> String? {
        var text: String?
        waitUntil(seconds: seconds, every: 0.01) {
            text = lock.withLock { done ? String(decoding: bytes, as: UTF8.self) : nil }
            return text != nil
        }
        return text
    }
}
