import Foundation

/// The package's root folder, found from this file's place in it (Tests/TestSupport/), for tests that read the
/// package's own files (README, samples, fixtures).
public enum PackageRoot {
    /// The root folder.
    public static let url = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `relative` under the root.
    public static func path(_ relative: String) -> String { url.appendingPathComponent(relative).path }
}
