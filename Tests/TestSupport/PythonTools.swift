import Foundation

/// The Python of the virtual environment `make python-tools` creates under `.build/venv`, with the validators tests
/// run as real processes (`jsonschema`, `junitparser`).
public enum PythonTools {
    /// `.build/venv/bin/python` under the package root.
    public static var python: URL { PackageRoot.url.appendingPathComponent(".build/venv/bin/python") }

    /// Runs `script` (Python source) with `arguments`, `input` on its standard input; throws `Missing` when the
    /// virtual environment has not been made, so a test that needs it fails saying how to make it, never skips.
    public static func run(_ script: String, _ arguments: [String] = [], input: String? = nil) throws -> ProcessRun {
        guard FileManager.default.isExecutableFile(atPath: python.path) else { throw Missing(python: python.path) }
        return try ProcessRun.run(python, ["-c", script] + arguments, input: input, timeout: 120)
    }

    /// Runs `script` as `run` does, on a thread of its own, so the awaiting test holds no thread of the cooperative
    /// pool while Python runs.
    public static func runAsync(_ script: String, _ arguments: [String] = [], input: String? = nil) async throws -> ProcessRun {
        guard FileManager.default.isExecutableFile(atPath: python.path) else { throw Missing(python: python.path) }
        return try await ProcessRun.runAsync(python, ["-c", script] + arguments, input: input, timeout: 120)
    }

    /// The virtual environment is not there.
    public struct Missing: Error, CustomStringConvertible {
        /// Where the interpreter was looked for.
        public let python: String
        /// Says what is missing and the command that makes it.
        public var description: String {
            "no Python validators: \(python) does not exist; run `make python-tools` (make test does) to create .build/venv with jsonschema and junitparser"
        }
    }
}
