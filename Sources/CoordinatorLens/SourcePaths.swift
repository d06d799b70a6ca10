/// The file name a report prints for a call site. The hook sends `#fileID` (`Module/File.swift`) as `file`, which no
/// editor can open, and `#filePath` as `path`; given the checkout's root (`--source-root`), reports print `path`
/// relative to it, so CI systems and editors find the line.
public struct SourcePaths: Hashable, Sendable {
    /// The checkout's absolute path, without a trailing slash; nil prints `file` as the producer sent it.
    public var root: String?

    /// Paths relative to `root` (absolute; a trailing slash is ignored), or `file` as sent when `root` is nil.
    public init(root: String? = nil) {
        var root = root
        while let trimmed = root, trimmed.count > 1, trimmed.hasSuffix("/") { root = String(trimmed.dropLast()) }
        self.root = root
    }

    /// `site`'s file for a report: with a root, its `path` relative to the root (or the whole `path` when it lies
    /// elsewhere); without a root, or without a usable `path`, its `file`.
    public func file(for site: CallSite) -> String {
        guard let root, let path = Self.usablePath(of: site) else { return site.file }
        let prefix = root == "/" ? "/" : root + "/"
        return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
    }

    /// `site.path` when it can stand for `site.file`: absolute, and naming the same file. A base class that forwards
    /// `file` and `line` from its caller but not `filePath` would otherwise pair the caller's line with its own file.
    static func usablePath(of site: CallSite) -> String? {
        guard let path = site.path, path.hasPrefix("/") else { return nil }
        return lastComponent(path) == lastComponent(site.file) ? path : nil
    }

    private static func lastComponent(_ path: String) -> Substring {
        path.split(separator: "/", omittingEmptySubsequences: true).last ?? Substring(path)
    }
}
