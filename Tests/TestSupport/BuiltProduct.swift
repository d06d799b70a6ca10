import Foundation

/// An executable product built into the same products directory as the test binary, whatever the scratch path
/// (`.build` in CI, `--scratch-path` elsewhere).
public struct BuiltProduct: Sendable {
    /// The product's name, which is its executable's file name.
    public let name: String
    /// An environment variable that, when set, names a directory searched before any other.
    public let directoryVariable: String?

    /// The product `name`, searched first in the directory `directoryVariable` names when that is set.
    public init(_ name: String, directoryVariable: String? = nil) {
        self.name = name
        self.directoryVariable = directoryVariable
    }

    /// The `coordlens` command-line tool.
    public static let coordlens = BuiltProduct("coordlens")

    /// The directories searched, in order: the override, then the test binary's directory and up to three above it
    /// (on macOS the test binary sits in X.xctest/Contents/MacOS, three levels below the products directory).
    public var searchedDirectories: [URL] {
        var directories: [URL] = []
        if let directoryVariable, let override = ProcessInfo.processInfo.environment[directoryVariable] {
            directories.append(URL(fileURLWithPath: override))
        }
        var starts: [URL] = []
        if let executable = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            starts.append(URL(fileURLWithPath: executable).deletingLastPathComponent())
        }
        // On Apple platforms the tests load as a bundle inside the products directory.
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
            starts.append(bundle.bundleURL.deletingLastPathComponent())
        }
        if let first = CommandLine.arguments.first {
            starts.append(URL(fileURLWithPath: first).resolvingSymlinksInPath().deletingLastPathComponent())
        }
        if let executable = Bundle.main.executableURL {
            starts.append(executable.resolvingSymlinksInPath().deletingLastPathComponent())
        }
        starts.append(Bundle.main.bundleURL)
        for start in starts {
            var directory = start.standardizedFileURL
            for _ in 0..<4 {
                if !directories.contains(directory) { directories.append(directory) }
                directory.deleteLastPathComponent()
            }
        }
        return directories
    }

    /// The executable, or nil when it has not been built.
    public var url: URL? {
        for directory in searchedDirectories {
            let candidate = directory.appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return nil
    }

    /// The executable; throws `Missing` when it has not been built.
    public func locate() throws -> URL {
        guard let url else { throw missing }
        return url
    }

    /// The error `locate` throws, also a reason to skip tests that need the executable.
    public var missing: Missing { Missing(product: name, searched: searchedDirectories.map(\.path)) }

    /// Runs the executable with `arguments` and waits for it, blocking the calling thread (see `ProcessRun.run`).
    public func run(
        _ arguments: [String], input: String? = nil, in directory: URL? = nil, timeout: Double? = nil,
        environment: [String: String] = [:]
    ) throws -> ProcessRun {
        try ProcessRun.run(locate(), arguments, input: input, in: directory, timeout: timeout, environment: environment)
    }

    /// Runs the executable with `arguments` on a thread of its own and awaits it (see `ProcessRun.runAsync`).
    public func runAsync(
        _ arguments: [String], input: String? = nil, in directory: URL? = nil, timeout: Double? = nil,
        environment: [String: String] = [:]
    ) async throws -> ProcessRun {
        try await ProcessRun.runAsync(locate(), arguments, input: input, in: directory, timeout: timeout, environment: environment)
    }

    /// A product that is not in any searched directory.
    public struct Missing: Error, CustomStringConvertible {
        /// The product's name.
        public let product: String
        /// The directories searched, in order.
        public let searched: [String]
        /// Names the product and where it was looked for, and how to build it.
        public var description: String {
            "no executable \(product) in \(searched.joined(separator: ", ")); build it first (swift build --build-tests builds every executable product)"
        }
    }
}
