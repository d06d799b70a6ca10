import CoordinatorLens
import Foundation

/// A session read from one of the command's input files.
struct InputSession {
    var source: String
    var log: SessionLog
}

/// Reads the `FILE...` arguments (`-` is standard input) into their sessions, in input order.
enum RecordingInput {
    /// Every input must hold at least one session line or event: an app that never wrote its stream, or a file that
    /// is not a recording, is bad input (exit 2), never an empty pass.
    /// `keeping` `.treeAtEnd` (for judging at the end) keeps each session's tree instead of its lines.
    static func read(
        _ paths: [String], limits: InputLimits = .default, keeping retention: Recording.Retention = .everyLine
    ) throws -> [InputSession] {
        try paths.flatMap { path in
            let (recording, source) = try streamed(path, limits: limits, keeping: retention)
            return try sessions(of: recording, source: source)
        }
    }

    /// The sessions of a recording read whole, or the bad-input error `check` gives for it.
    static func sessions(of recording: Recording, source: String) throws -> [InputSession] {
        guard recording.usableLines > 0 else {
            throw UsageFailure(message: "\(source): no session line and no event to read: " + emptiness(of: recording))
        }
        // Session lines but not one readable event, while some lines failed: a producer speaking another format.
        if recording.eventLines == 0, let first = recording.firstProblem {
            let notes = recording.sessions.flatMap(\.notes).map(\.message).filter { $0.hasPrefix("no event could be used") }
            throw UsageFailure(message: "\(source): " + (notes.first ?? "no event could be used (first: \(first))"))
        }
        return recording.sessions.map { InputSession(source: source, log: $0) }
    }

    private static func emptiness(of recording: Recording) -> String {
        guard recording.linesRead > 0 else { return "the input is empty" }
        let lines = recording.linesRead == 1 ? "its only line" : "all \(recording.linesRead) lines"
        let first = recording.firstProblem.map { " (first: \($0))" } ?? " (all blank)"
        return "\(lines) failed to read as wire format v1\(first)"
    }

    /// Reads one argument chunk by chunk, so a large recording never sits in memory whole next to what is read
    /// from it.
    private static func streamed(
        _ path: String, limits: InputLimits, keeping retention: Recording.Retention
    ) throws -> (Recording, source: String) {
        let input = try Input(path)
        defer { input.close() }
        var recording = Recording(limits: limits, keeping: retention)
        try input.rest { chunk in chunk.withUnsafeBytes { recording.consume($0) } }
        recording.finish()
        return (recording, input.source)
    }

    /// One argument opened for reading a chunk at a time.
    struct Input {
        let path: String
        let handle: FileHandle
        /// The name reports give it.
        let source: String

        init(_ path: String) throws {
            self.path = path
            if path == "-" {
                (handle, source) = (FileHandle.standardInput, "<stdin>")
            } else {
                guard let file = FileHandle(forReadingAtPath: path) else { throw UsageFailure(message: "cannot read \(path)") }
                (handle, source) = (file, path)
            }
        }

        /// The next chunk, up to 1 MiB; empty at the end.
        func chunk() throws -> Data {
            do {
                return try handle.read(upToCount: 1 << 20) ?? Data()
            } catch {
                throw UsageFailure(message: "cannot read \(path): \(error.localizedDescription)")
            }
        }

        /// Hands every chunk left to `body`, in order.
        func rest(_ body: (Data) -> Void) throws {
            while true {
                let next = try chunk()
                if next.isEmpty { return }
                body(next)
            }
        }

        func close() {
            if path != "-" { try? handle.close() }
        }
    }
}
