import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file a command writes its result to (`-o`), the same way for every command.
///
/// A regular file, or nothing yet, at the path is written beside it and renamed into place only when whole, so a
/// failed run leaves an earlier file as it was. Anything else is written in place, opened as it is and never renamed
/// over: a character or block device, a FIFO, a symlink (such as /dev/stdout), so `-o /dev/null` leaves the device a
/// device even as root. A device or FIFO is never truncated; a regular file that a symlink leads to is emptied first,
/// the link kept. A FIFO's open waits for a reader, as any writer's does.
enum OutputFile {
    /// Writes `bytes` to `path`.
    static func write(_ bytes: [UInt8], to path: String) throws {
        try withStream(to: path) { try put(bytes, to: $0, named: path) }
    }

    /// Hands `body` a stdio stream onto `path`, for output made piece by piece; a regular file takes its place only
    /// when `body` succeeds.
    static func withStream(to path: String, _ body: (UnsafeMutablePointer<FILE>) throws -> Void) throws {
        var status = stat()
        if lstat(path, &status) == 0, status.st_mode & S_IFMT != S_IFREG {
            try finish(try openInPlace(path), named: path, body)
            return
        }
        let partial = path + ".partial-\(getpid())"
        guard let stream = fopen(partial, "w") else { throw failure(path) }
        do {
            try finish(stream, named: path, body)
        } catch {
            unlink(partial)
            throw error
        }
        guard rename(partial, path) == 0 else {
            let problem = failure(path)
            unlink(partial)
            throw problem
        }
    }

    /// Writes all of `bytes` to `stream`.
    static func put(_ bytes: [UInt8], to stream: UnsafeMutablePointer<FILE>, named name: String) throws {
        let written = bytes.withUnsafeBufferPointer { fwrite($0.baseAddress, 1, $0.count, stream) }
        if written != bytes.count { throw failure(name) }
    }

    /// Runs `body` on `stream` and closes it, reporting a write that failed, at the latest when closing flushes it.
    static func finish(_ stream: UnsafeMutablePointer<FILE>, named name: String, _ body: (UnsafeMutablePointer<FILE>) throws -> Void) throws {
        do {
            try body(stream)
        } catch {
            fclose(stream)
            throw error
        }
        let failed = ferror(stream) != 0
        if fclose(stream) != 0 || failed { throw failure(name) }
    }

    /// Opens what stands at `path` for writing without replacing it (no `O_TRUNC`: only a regular file is emptied).
    private static func openInPlace(_ path: String) throws -> UnsafeMutablePointer<FILE> {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_NOCTTY | O_CLOEXEC, 0o666)
        guard descriptor >= 0 else { throw failure(path) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT != S_IFREG || ftruncate(descriptor, 0) == 0,
            let stream = fdopen(descriptor, "w")
        else {
            let problem = failure(path)
            close(descriptor)
            throw problem
        }
        return stream
    }

    /// The failure `errno` names, for `name`.
    private static func failure(_ name: String) -> OutputFailure {
        OutputFailure(message: "cannot write \(name): \(String(cString: strerror(errno)))")
    }
}
