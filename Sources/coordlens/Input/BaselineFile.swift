import CoordinatorLens
import Foundation

/// `coordlens-baseline.json` on disk: the core's `BaselineFormat` read from and written to a file, its errors named
/// by the file's path.
enum BaselineFile {
    /// The file's text for `baseline`.
    static func text(for baseline: LeakBaseline) -> String {
        BaselineFormat.text(for: baseline)
    }

    /// Reads the baseline at `path`; anything wrong is a usage failure naming the file and, where it can, the line.
    static func read(_ path: String) throws -> LeakBaseline {
        // Read through a handle, so a pipe (`--baseline <(…)`) works as well as a file.
        guard let data = FileHandle(forReadingAtPath: path).flatMap({ try? $0.readToEnd() ?? Data() }) else {
            throw UsageFailure(message: "cannot read baseline \(path): \(FileProblem.reading(path))")
        }
        let read = data.withUnsafeBytes { raw in
            Result { () throws(BaselineFormatError) -> LeakBaseline in try BaselineFormat.read(raw.bindMemory(to: UInt8.self)) }
        }
        switch read {
        case .success(let baseline): return baseline
        case .failure(let problem): throw UsageFailure(message: "\(path)\(problem.line.map { ":\($0)" } ?? ""): \(problem.message)")
        }
    }
}
