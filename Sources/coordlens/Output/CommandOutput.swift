import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a command's result goes: the `-o` file, or standard output for none or `-`.
enum CommandOutput {
    static func write(_ bytes: [UInt8], to output: String?) throws {
        try withStream(to: output) { stream in
            let written = bytes.withUnsafeBufferPointer { fwrite($0.baseAddress, 1, $0.count, stream) }
            if written != bytes.count { throw OutputFailure(message: "cannot write \(output ?? "standard output"): \(String(cString: strerror(errno)))") }
        }
    }

    /// Hands `body` a stdio stream onto the `-o` file (or standard output) for output made piece by piece. A file is
    /// written beside its final name and renamed into place only when `body` succeeds, so a failed drawing leaves an
    /// earlier file of that name as it was.
    static func withStream(to output: String?, _ body: (UnsafeMutablePointer<FILE>) throws -> Void) throws {
        guard let output, output != "-" else {
            // A stream of its own onto standard output: Swift 6 will not touch C's global `stdout`.
            guard let stream = fdopen(dup(STDOUT_FILENO), "w") else {
                throw OutputFailure(message: "cannot write standard output: \(String(cString: strerror(errno)))")
            }
            try writeThrough(stream, named: "standard output", body)
            return
        }
        // Only a plain file (or none yet) is written beside and renamed over. Anything else is written through as it
        // is: a symlink such as /dev/stdout, which a rename would replace with a file, a device, a pipe, a terminal.
        var status = stat()
        if lstat(output, &status) == 0, status.st_mode & S_IFMT != S_IFREG {
            guard let stream = fopen(output, "w") else {
                throw OutputFailure(message: "cannot write \(output): \(String(cString: strerror(errno)))")
            }
            try writeThrough(stream, named: output, body)
            return
        }
        let partial = output + ".partial-\(getpid())"
        guard let stream = fopen(partial, "w") else {
            throw OutputFailure(message: "cannot write \(output): \(String(cString: strerror(errno)))")
        }
        do {
            try writeThrough(stream, named: output, body)
        } catch {
            unlink(partial)
            throw error
        }
        guard rename(partial, output) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(partial)
            throw OutputFailure(message: "cannot write \(output): \(reason)")
        }
    }

    /// Runs `body` on `stream` and closes it, reporting a write that failed, at the latest when closing flushes it.
    private static func writeThrough(_ stream: UnsafeMutablePointer<FILE>, named name: String, _ body: (UnsafeMutablePointer<FILE>) throws -> Void) throws {
        do {
            try body(stream)
        } catch {
            fclose(stream)
            throw error
        }
        let failed = ferror(stream) != 0
        if fclose(stream) != 0 || failed {
            throw OutputFailure(message: "cannot write \(name): \(String(cString: strerror(errno)))")
        }
    }
}
