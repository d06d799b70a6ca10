/// The file name a report prints for a call site. The hook sends `#fileID` (`Module/File.swift`) as `file`, which no
/// editor can open, and `#filePath` as `path`; given the checkout's root (`--source-root`), reports print `path`
/// relative to it, so CI systems and editors find the line. No output names a path outside the root: such a site
/// is printed as `file`, so a report made in CI never carries the build machine's paths.
public struct SourcePaths: Hashable, Sendable {
    /// The checkout's absolute path, without a trailing slash; nil prints `file` as the producer sent it.
    public var root: String?
    /// Whether outputs that carry a site's full path (the page, `report.html`) leave it out when there is no root.
    public var dropsFullPaths: Bool

    /// Paths relative to `root` (absolute; a trailing slash is ignored), or `file` as sent when `root` is nil;
    /// `dropsFullPaths` keeps the build machine's paths out of shareable outputs that have no root.
    public init(root: String? = nil, dropsFullPaths: Bool = false) {
        var root = root
        while let trimmed = root, trimmed.count > 1, trimmed.hasSuffix("/") { root = String(trimmed.dropLast()) }
        self.root = root
        self.dropsFullPaths = dropsFullPaths
    }

    /// `site`'s file for a report: with a root, its `path` relative to the root when it lies inside it; otherwise,
    /// or without a usable `path`, its `file`.
    package func file(for site: CallSite) -> String {
        guard let root, let path = Self.usablePath(of: site) else { return site.file }
        // A relative path is one the hook already took `TraceOptions.sourceRoot` off: relative to the checkout.
        guard path.hasPrefix("/") else { return path }
        let prefix = root == "/" ? "/" : root + "/"
        return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : site.file
    }

    /// `site` as shareable outputs carry it: with a root, `file` is what reports print and the full path goes;
    /// without one, the full path goes only when `dropsFullPaths`.
    package func shared(_ site: CallSite) -> CallSite {
        guard root != nil || dropsFullPaths else { return site }
        var shared = site
        shared.file = file(for: site)
        shared.path = nil
        return shared
    }

    /// The node's reason with the call site it names (a `remove`'s) printed as reports print sites.
    package func reason(for node: SnapshotNode) -> String? {
        guard root != nil, let reason = node.reason, let site = node.removedSite, node.reasonKind == .detached else {
            return node.reason
        }
        let sent = " at \(site.description)"
        guard let range = reason.firstRange(of: sent) else { return reason }
        var rewritten = reason
        rewritten.replaceSubrange(range, with: " at \(file(for: site)):\(site.line)")
        return rewritten
    }

    /// `site` as the live page's model carries it: `file` as reports print it, and the path kept when it names the
    /// same file, for Open (an editor needs the whole path; the page is the developer's own, no shareable output).
    package func local(_ site: CallSite) -> CallSite {
        guard root != nil else { return site }
        var local = site
        local.file = file(for: site)
        local.path = Self.usablePath(of: site)
        return local
    }

    /// The snapshot with every call site shared (`shared(_:)`) and every reason as `reason(for:)` words it, for
    /// pictures, the page and `report.html`.
    public func applied(to snapshot: Snapshot) -> Snapshot {
        applied(to: snapshot, sites: shared)
    }

    /// The snapshot as `applied(to:)` makes it, with each site's path kept where it names the site's file (`local`):
    /// the live page's model, whose Open needs it.
    package func appliedKeepingPaths(to snapshot: Snapshot) -> Snapshot {
        applied(to: snapshot, sites: local)
    }

    private func applied(to snapshot: Snapshot, sites: (CallSite) -> CallSite) -> Snapshot {
        guard root != nil || dropsFullPaths else { return snapshot }
        let nodes = snapshot.nodes.map { node in node.withSites(sites, reason: reason(for: node)) }
        var applied = Snapshot(
            app: snapshot.app, run: snapshot.run, pid: snapshot.pid, evaluatedAt: snapshot.evaluatedAt, grace: snapshot.grace,
            lastSeq: snapshot.lastSeq, ended: snapshot.ended, roots: snapshot.roots, nodes: nodes, marks: snapshot.marks,
            warnings: snapshot.warnings
        )
        applied.heldBy = snapshot.heldBy
        applied.idSpellings = snapshot.idSpellings
        return applied
    }

    /// `site.path` when it can stand for `site.file`: absolute, or relative to the checkout (as the hook sends it with
    /// `TraceOptions.sourceRoot`, never climbing out with `..`), and naming the same file. A base class that forwards
    /// `file` and `line` from its caller but not `filePath` would otherwise pair the caller's line with its own file.
    static func usablePath(of site: CallSite) -> String? {
        guard let path = site.path, !path.isEmpty, !path.split(separator: "/").contains("..") else { return nil }
        return lastComponent(path) == lastComponent(site.file) ? path : nil
    }

    private static func lastComponent(_ path: String) -> Substring {
        path.split(separator: "/", omittingEmptySubsequences: true).last ?? Substring(path)
    }
}
