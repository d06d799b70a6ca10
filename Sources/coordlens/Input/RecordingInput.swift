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
    ///
    /// A run found in several files (a `listen` restarted onto another recording, a file per device session) is one
    /// session: those files are read again as one stream, in the order given, and the run shows once, where it first
    /// appears, its source naming every file (line numbers then count on from one file to the next).
    static func read(
        _ paths: [String], limits: InputLimits = .default, keeping retention: Recording.Retention = .everyLine
    ) throws -> [InputSession] {
        let perFile = try paths.map { path in
            let (recording, source) = try streamed([path], limits: limits, keeping: retention)
            return try sessions(of: recording, source: source)
        }
        var files: [String: [Int]] = [:]
        for (index, sessions) in perFile.enumerated() {
            for run in Set(sessions.map(\.log.header.run)) { files[run, default: []].append(index) }
        }
        let spanning = files.filter { $0.value.count > 1 }
        guard !spanning.isEmpty, !paths.contains("-") else { return perFile.flatMap { $0 } }
        let joinedFiles = Set(spanning.values.joined()).sorted()
        let (joined, source) = try streamed(joinedFiles.map { paths[$0] }, limits: limits, keeping: retention)
        var joinedSessions: [String: InputSession] = [:]
        for session in joined.sessions where spanning[session.header.run] != nil {
            joinedSessions[session.header.run] = InputSession(source: source, log: session)
        }
        var result: [InputSession] = []
        for session in perFile.joined() {
            guard spanning[session.log.header.run] != nil else {
                result.append(session)
                continue
            }
            if let first = joinedSessions.removeValue(forKey: session.log.header.run) { result.append(first) }
        }
        return result
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
    /// Several paths are read as one stream, a newline between them so a file's cut last line stays its own.
    private static func streamed(
        _ paths: [String], limits: InputLimits, keeping retention: Recording.Retention
    ) throws -> (Recording, source: String) {
        var recording = Recording(limits: limits, keeping: retention)
        var sources: [String] = []
        for path in paths {
            let input = try Input(path)
            defer { input.close() }
            if !sources.isEmpty { [UInt8(ascii: "\n")].withUnsafeBytes { recording.consume($0) } }
            try input.rest { chunk in chunk.withUnsafeBytes { recording.consume($0) } }
            sources.append(input.source)
        }
        recording.finish()
        return (recording, sources.joined(separator: " + "))
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
                guard let file = FileHandle(forReadingAtPath: path) else {
                    throw UsageFailure(message: "cannot read \(path): \(FileProblem.reading(path))")
                }
                (handle, source) = (file, path)
            }
        }

        /// The next chunk, up to 1 MiB; empty at the end.
        func chunk() throws -> Data {
            do {
                return try handle.read(upToCount: 1 << 20) ?? Data()
            } catch {
                // Foundation's words for a directory ("The operation could not be completed") say nothing.
                let reason = path != "-" && FileManager.default.fileExists(atPath: path) ? FileProblem.reading(path) : error.localizedDescription
                throw UsageFailure(message: "cannot read \(path): \(reason == "Success" ? error.localizedDescription : reason)")
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
