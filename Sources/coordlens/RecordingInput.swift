import CoordinatorLens
import Foundation

/// A session read from one of the command's input files.
struct InputSession {
    var source: String
    var log: SessionLog
}

/// Reads the `FILE...` arguments (`-` is standard input) into their sessions, in input order.
enum RecordingInput {
    static func read(_ paths: [String], limits: InputLimits = .default) throws -> [InputSession] {
        try paths.flatMap { path in
            let (data, source) = try contents(of: path)
            return Recording(bytes: data, limits: limits).sessions.map { InputSession(source: source, log: $0) }
        }
    }

    /// The bytes behind one argument and the name reports give it.
    static func contents(of path: String) throws -> (data: Data, source: String) {
        if path == "-" { return (FileHandle.standardInput.readDataToEndOfFile(), "<stdin>") }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw UsageFailure(message: "cannot read \(path)")
        }
        return (data, path)
    }
}
