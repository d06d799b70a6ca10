import ArgumentParser
import CoordinatorLens
import Foundation

/// `--source-root DIR`: call sites printed relative to a checkout, so editors and CI systems can open them.
struct SourceRootOption: ParsableArguments {
    @Option(
        name: .customLong("source-root"),
        help: "Print call sites' full paths (the hook's #filePath) relative to this checkout; without it, as #fileID."
    )
    var sourceRoot: String?

    /// The paths a report prints; a relative root is taken from the working directory. The root need not exist here:
    /// a recording made on another machine names that machine's checkout.
    var paths: SourcePaths {
        guard let sourceRoot else { return SourcePaths() }
        if sourceRoot.hasPrefix("/") { return SourcePaths(root: sourceRoot) }
        return SourcePaths(root: URL(fileURLWithPath: sourceRoot).standardizedFileURL.path)
    }
}
