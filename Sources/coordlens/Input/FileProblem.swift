import Foundation

/// Why a path cannot be read, in the words a user acts on: "cannot read X" alone leaves them guessing.
enum FileProblem {
    /// The reason `path` could not be opened for reading: no such file, a directory, permission denied.
    static func reading(_ path: String) -> String {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            let folder = (path as NSString).deletingLastPathComponent
            if !folder.isEmpty, !FileManager.default.fileExists(atPath: folder) { return "no such file (no folder \(folder))" }
            return "no such file"
        }
        if isDirectory.boolValue { return "it is a directory" }
        if !FileManager.default.isReadableFile(atPath: path) { return "permission denied" }
        return String(cString: strerror(errno))
    }
}
