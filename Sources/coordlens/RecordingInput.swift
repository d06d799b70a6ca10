import CoordinatorLens
import Foundation

/// A session read from one of the command's input files.
struct InputSession {
    var source: String
    var log: SessionLog
}

/// Reads the `FILE...` arguments (`-` is standard input) into their sessions, in input order.
enum RecordingInput {
    static func read(_ paths: [String]) throws -> [InputSession] {
        var sessions: [InputSession] = []
        for path in paths {
            let data: Data
            if path == "-" {
                data = FileHandle.standardInput.readDataToEndOfFile()
            } else {
                guard let contents = FileManager.default.contents(atPath: path) else {
                    throw UsageFailure(message: "cannot read \(path)")
                }
                data = contents
            }
            let recording = Recording(bytes: data)
            let source = path == "-" ? "<stdin>" : path
            sessions += recording.sessions.map { InputSession(source: source, log: $0) }
        }
        return sessions
    }
}
