import Foundation

/// The built `coordlens` executable, found in the build products directory that holds this test binary, whatever the
/// scratch path (`.build` in CI); nil when it has not been built.
enum CoordlensBinary {
    static let url: URL? = {
        var directories: [URL] = []
        if let executable = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            directories.append(URL(fileURLWithPath: executable).deletingLastPathComponent())
        }
        if let first = CommandLine.arguments.first {
            directories.append(URL(fileURLWithPath: first).resolvingSymlinksInPath().deletingLastPathComponent())
        }
        directories.append(Bundle.main.bundleURL)
        for start in directories {
            // On macOS the test binary sits in X.xctest/Contents/MacOS, three levels below the products directory.
            var directory = start.standardizedFileURL
            for _ in 0..<4 {
                let candidate = directory.appendingPathComponent("coordlens")
                if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
                directory.deleteLastPathComponent()
            }
        }
        return nil
    }()

    /// The reason tests that run the binary are skipped when it is missing.
    static let missing = "coordlens is not built next to the tests: run `swift build` (or `swift build --build-tests`) first"

    /// What one run of the binary did.
    struct Outcome {
        var status: Int32
        var standardOutput: String
        var standardError: String
    }

    /// Runs `coordlens` with `arguments` in `directory` and waits for it.
    static func run(_ arguments: [String], in directory: URL) throws -> Outcome {
        let process = Process()
        process.executableURL = url
        process.arguments = arguments
        process.currentDirectoryURL = directory
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        try process.run()
        // Read before waiting, so a large output cannot fill the pipe and stall the process.
        let outData = output.fileHandleForReading.readDataToEndOfFile()
        let errData = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Outcome(
            status: process.terminationStatus,
            standardOutput: String(decoding: outData, as: UTF8.self),
            standardError: String(decoding: errData, as: UTF8.self)
        )
    }
}
