import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a command's result goes: the `-o` file (`OutputFile`), or standard output for none or `-`.
enum CommandOutput {
    static func write(_ bytes: [UInt8], to output: String?) throws {
        try withStream(to: output) { try OutputFile.put(bytes, to: $0, named: output ?? "standard output") }
    }

    /// Hands `body` a stdio stream onto the `-o` file (or standard output) for output made piece by piece; see
    /// `OutputFile` for how a file takes its place.
    static func withStream(to output: String?, _ body: (UnsafeMutablePointer<FILE>) throws -> Void) throws {
        guard let output, output != "-" else {
            // A stream of its own onto standard output: Swift 6 will not touch C's global `stdout`.
            guard let stream = fdopen(dup(STDOUT_FILENO), "w") else {
                throw OutputFailure(message: "cannot write standard output: \(String(cString: strerror(errno)))")
            }
            try OutputFile.finish(stream, named: "standard output", body)
            return
        }
        try OutputFile.withStream(to: output, body)
    }
}
