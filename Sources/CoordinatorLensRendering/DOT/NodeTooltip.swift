import CoordinatorLens

/// The tooltip a browser shows over a drawn coordinator: its verdict and reason, its call sites and its times, so a
/// picture answers "why red, and where in the code" without the text report.
enum NodeTooltip {
    /// The tooltip's lines for `node`, plain text; `DOTEscaping.tooltip` makes them a DOT attribute value.
    static func lines(for node: SnapshotNode, in snapshot: Snapshot, paths: SourcePaths) -> [String] {
        var lines = ["\(node.type)#\(node.id)" + (node.screen.map { " · \($0)" } ?? "")]
        lines.append(node.verdict.rawValue + (node.reason.map { ": \($0)" } ?? ""))
        func site(_ word: String, _ site: CallSite?) {
            guard let site else { return }
            lines.append("\(word) at \(paths.file(for: site)):\(site.line)" + (site.function.map { " in \($0)" } ?? ""))
        }
        site("added", node.site)
        site("bound", node.boundSite)
        site("dismissed", node.dismissedSite)
        site("removed", node.removedSite)
        var times = ["added \(Seconds(node.addedAt))"]
        if let done = node.doneAt { times.append("done \(Seconds(done))") }
        if let deinitAt = node.deinitAt { times.append("deinited \(Seconds(deinitAt))") }
        for shown in node.shownAgain ?? [] {
            lines.append("dismissed \(Seconds(shown.dismissedAt)), shown again on \(shown.screen) \(Seconds(shown.shownAt)) into the run")
        }
        lines.append(times.joined(separator: " · ") + " into the run (judged at \(Seconds(snapshot.evaluatedAt)))")
        return lines
    }

    /// The tooltip's lines for a diff's entry: its marker and what changed, then each run's coordinator as `lines`
    /// gives it, prefixed `A` or `B`.
    static func lines(for entry: TreeDiff.Entry, in diff: TreeDiff) -> [String] {
        var lines = ["\(entry.marker.symbol) \(entry.type): \(TreeDiffReport.detail(entry, in: diff))"]
        for (side, node, snapshot) in [("A", diff.nodeA(entry), diff.a), ("B", diff.nodeB(entry), diff.b)] {
            guard let node else { continue }
            lines += Self.lines(for: node, in: snapshot, paths: SourcePaths()).map { "\(side) \($0)" }
        }
        return lines
    }
}
