import Foundation

/// A folder of its own under the system's temporary directory, removed with everything in it when the value goes.
public final class TemporaryFolder: @unchecked Sendable {
    /// The folder's path.
    public let path: String

    /// Creates `<tmp>/<prefix>-<UUID>`.
    public init(_ prefix: String) throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID())").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    /// A path inside the folder.
    public func file(_ name: String) -> String { path + "/" + name }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}
