import Foundation

/// Finds the built sample executables: they sit in the build products directory, next to the test bundle.
enum SampleBinaries {
    struct Missing: Error, CustomStringConvertible {
        let product: String
        let searched: [String]
        var description: String {
            "no executable \(product) in \(searched.joined(separator: ", ")); build it first (swift build --build-tests builds every sample)"
        }
    }

    static func url(for product: String) throws -> URL {
        let directories = candidateDirectories()
        for directory in directories {
            let url = directory.appendingPathComponent(product)
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        throw Missing(product: product, searched: directories.map(\.path))
    }

    private static func candidateDirectories() -> [URL] {
        var directories: [URL] = []
        if let override = ProcessInfo.processInfo.environment["SAMPLES_BIN_DIR"] {
            directories.append(URL(fileURLWithPath: override))
        }
        // On Apple platforms the tests load as a bundle inside the products directory; on Linux they are an
        // executable there.
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
            directories.append(bundle.bundleURL.deletingLastPathComponent())
        }
        if let executable = Bundle.main.executableURL {
            directories.append(executable.resolvingSymlinksInPath().deletingLastPathComponent())
        }
        return directories
    }
}
