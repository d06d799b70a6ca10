import Foundation

/// Writes the stream to a file: one run per file unless appending was asked for.
///
/// Only a regular file, or nothing, at `path` is made afresh as a new file. A character or block device, a FIFO or a
/// symlink is written in place: opened for writing as it is, never replaced, renamed over or truncated, so
/// `.file("/dev/null")` leaves the device a device, even as root (a regular file a symlink leads to is emptied, the
/// link kept).
///
/// A FIFO never makes the app wait. It is opened without blocking: while nothing reads it, the open fails, the lines
/// wait in the writer's bounded backlog (then are counted dropped, as when a disk refuses them), and the open is tried
/// again at each delivery. A reader that falls behind is not waited for: a line the full pipe took only part of is
/// finished first at the next delivery, or at `close` for at most a quarter of a second, after which the reader sees
/// it cut. A reader that goes away breaks the pipe without a SIGPIPE (blocked on the hook's writer thread on Linux,
/// turned off for the descriptor on Apple platforms); the lines it missed wait for the next reader.
public final class FileSink: TraceSink, @unchecked Sendable {
    /// The file's path.
    public let path: String
    /// Whether this run goes after what the file already holds, rather than replacing it.
    public let appending: Bool
    private var descriptor: Int32 = -1
    /// Whether the open file is a regular one, written at its end and cut back to whole lines; anything else (a
    /// device, a FIFO) is a stream, written as it takes bytes.
    private var regular = true
    /// The rest of a line a full pipe took only part of: it goes before anything else.
    private var tail: [UInt8] = []
    private var failed = false
    /// Lines joined for one write, kept to reuse its storage.
    private var joined: [UInt8] = []
    static let writeBytes = 1 << 20
    /// How long `close` waits for a slow reader to take the rest of a cut line.
    static let closeWaitNanoseconds: UInt64 = 250_000_000

    /// Starts a regular file afresh at once (emptied or created), so that a rerun into the same path, even one that
    /// quits before its first event, never leaves the previous run in it to be judged again; with `appending`, the
    /// file is kept and this run goes after it, said once on standard error. A device, FIFO or symlink is left as it
    /// is (see the type). It is opened for writing on the first delivery, on the writer thread.
    public init(path: String, appending: Bool = false) {
        self.path = path
        self.appending = appending
        guard !appending else { return }
        if let kind = Self.kind(path), kind != S_IFREG {
            // Written in place; only a regular file behind a symlink is emptied.
            if Self.kind(path, following: true) == S_IFREG, truncate(path, 0) != 0 {
                report("cannot empty \(path): \(String(cString: strerror(errno))); events are kept in a bounded backlog, then dropped")
            }
        } else if !FileManager.default.createFile(atPath: path, contents: nil) {
            report("cannot create \(path); events are kept in a bounded backlog, then dropped")
        }
    }

    public func deliver(_ lines: ArraySlice<[UInt8]>) -> Int {
        guard let descriptor = openIfNeeded(), sendTail(descriptor) else { return 0 }
        var delivered = 0
        var index = lines.startIndex
        while index < lines.endIndex {
            // Up to 1 MiB of lines per write: one system call, not one per line.
            joined.removeAll(keepingCapacity: true)
            var ends: [Int] = []
            while index < lines.endIndex, joined.isEmpty || joined.count + lines[index].count <= Self.writeBytes {
                joined.append(contentsOf: lines[index])
                ends.append(joined.count)
                index += 1
            }
            let (written, error) = write(joined, to: descriptor)
            let whole = ends.prefix { $0 <= written }.count
            delivered += whole
            guard written == joined.count else {
                let cut = written - (whole > 0 ? ends[whole - 1] : 0)
                if regular {
                    // The disk refused part of it: the file keeps whole lines only, and the rest is offered again.
                    if cut > 0 { _ = ftruncate(descriptor, lseek(descriptor, 0, SEEK_CUR) - off_t(cut)) }
                    _ = lseek(descriptor, 0, SEEK_END)
                    report("cannot write to \(path): \(String(cString: strerror(error)))")
                } else if error == EAGAIN || error == EWOULDBLOCK {
                    // The reader is behind: what it took of a line cannot be taken back, so the line's rest goes first
                    // at the next delivery, and the line counts as delivered.
                    if cut > 0 {
                        tail = Array(joined[written..<ends[whole]])
                        delivered += 1
                    }
                } else {
                    lose(error)
                }
                return delivered
            }
        }
        return delivered
    }

    public func close() {
        let deadline = MonotonicClock.now() &+ Self.closeWaitNanoseconds
        while descriptor >= 0, !sendTail(descriptor), descriptor >= 0 {
            let now = MonotonicClock.now()
            guard now < deadline else { break }
            var poller = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
            _ = poll(&poller, 1, Int32((deadline - now) / 1_000_000) + 1)
        }
        tail.removeAll()
        if descriptor >= 0 { _ = Foundation.close(descriptor) }
        descriptor = -1
    }

    private func openIfNeeded() -> Int32? {
        if descriptor >= 0 { return descriptor }
        // Without blocking, so that a FIFO nobody reads fails at once (ENXIO) rather than waiting for a reader.
        let opened = open(path, O_WRONLY | O_CREAT | O_NONBLOCK | O_NOCTTY | O_CLOEXEC, 0o666)
        guard opened >= 0 else {
            let error = errno
            if error == ENXIO, Self.kind(path, following: true) == S_IFIFO {
                report("nothing reads the FIFO \(path) yet; events are kept in a bounded backlog, then dropped, until something does")
            } else {
                report("cannot open \(path) for writing (\(String(cString: strerror(error)))); events are kept in a bounded backlog, then dropped")
            }
            return nil
        }
        var status = stat()
        regular = fstat(opened, &status) != 0 || status.st_mode & S_IFMT == S_IFREG
        if regular {
            _ = fcntl(opened, F_SETFL, fcntl(opened, F_GETFL) & ~O_NONBLOCK)
            let earlier = lseek(opened, 0, SEEK_END)
            if appending, earlier > 0 {
                FileHandle.standardError.write(
                    Data(
                        "CoordinatorTrace: appending this run to \(path), which holds \(earlier) bytes of earlier runs; coordlens check judges every run in it\n"
                            .utf8))
            }
        } else {
            Self.keepBrokenPipeQuiet(opened)
        }
        descriptor = opened
        return opened
    }

    /// Sends what is left of a line a full pipe cut; true once nothing is left.
    private func sendTail(_ descriptor: Int32) -> Bool {
        guard !tail.isEmpty else { return true }
        let (written, error) = write(tail, to: descriptor)
        tail.removeFirst(written)
        if tail.isEmpty { return true }
        if error != EAGAIN, error != EWOULDBLOCK { lose(error) }
        return false
    }

    /// The reader went away (EPIPE) or the device failed: the descriptor is closed and opened again at the next
    /// delivery, so undelivered lines wait for the next reader; a line the last one got part of stays cut.
    private func lose(_ error: Int32) {
        Self.takeBrokenPipe()
        report("cannot write to \(path): \(String(cString: strerror(error))); events are kept in a bounded backlog, then dropped")
        tail.removeAll()
        _ = Foundation.close(descriptor)
        descriptor = -1
    }

    /// Writes `bytes` to `descriptor`, retrying interrupted and partial writes; returns how many bytes were written
    /// and, when not all, the error that stopped it.
    private func write(_ bytes: [UInt8], to descriptor: Int32) -> (written: Int, error: Int32) {
        var written = 0
        while written < bytes.count {
            let result = bytes.withUnsafeBytes { buffer in
                Foundation.write(descriptor, buffer.baseAddress! + written, buffer.count - written)
            }
            if result > 0 {
                written += result
            } else if result < 0, errno == EINTR {
                continue
            } else {
                return (written, result < 0 ? errno : EIO)
            }
        }
        return (written, 0)
    }

    /// What stands at `path` itself, or with `following`, where its symlinks lead; nil when nothing does.
    private static func kind(_ path: String, following: Bool = false) -> mode_t? {
        var status = stat()
        guard (following ? stat(path, &status) : lstat(path, &status)) == 0 else { return nil }
        return status.st_mode & S_IFMT
    }

    /// A reader that goes away must not end the app with SIGPIPE. Apple platforms turn the signal off for the
    /// descriptor; Linux has no such flag for a pipe, so it is blocked on the calling thread, the hook's own writer
    /// thread (sinks are called on no other), and a raised one is taken back by `takeBrokenPipe`.
    private static func keepBrokenPipeQuiet(_ descriptor: Int32) {
        #if canImport(Darwin)
        _ = fcntl(descriptor, F_SETNOSIGPIPE, 1)
        #else
        var brokenPipe = sigset_t()
        sigemptyset(&brokenPipe)
        sigaddset(&brokenPipe, SIGPIPE)
        pthread_sigmask(SIG_BLOCK, &brokenPipe, nil)
        #endif
    }

    private static func takeBrokenPipe() {
        #if !canImport(Darwin)
        var brokenPipe = sigset_t()
        sigemptyset(&brokenPipe)
        sigaddset(&brokenPipe, SIGPIPE)
        var now = timespec()
        while sigtimedwait(&brokenPipe, nil, &now) == SIGPIPE {}
        #endif
    }

    private func report(_ message: String) {
        guard !failed else { return }
        failed = true
        FileHandle.standardError.write(Data("CoordinatorTrace: \(message)\n".utf8))
    }
}
