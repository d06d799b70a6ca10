extension SnapshotNode {
    /// The same node, judged retained for `reason`.
    func retained(because reason: RetentionReason) -> SnapshotNode {
        rebuilt(verdict: .retained, reason: reason.text, reasonKind: reason.kind, sites: { $0 })
    }

    /// The same node judged alive because it is kept for reuse.
    func kept(_ kept: KeptForReuse) -> SnapshotNode {
        var node = rebuilt(verdict: .alive, reason: kept.text, reasonKind: nil, sites: { $0 })
        node.keptOutOfLine = OutOfLine(kept)
        return node
    }

    /// The same node with its reason text replaced, its verdict and kind as they are.
    func withReason(_ reason: String) -> SnapshotNode {
        rebuilt(verdict: verdict, reason: reason, reasonKind: reasonKind, sites: { $0 })
    }

    /// The same node with its call sites passed through `transform` and its reason text replaced.
    func withSites(_ transform: (CallSite) -> CallSite, reason: String?) -> SnapshotNode {
        rebuilt(verdict: verdict, reason: reason, reasonKind: reasonKind, sites: transform)
    }

    private func rebuilt(
        verdict: Verdict, reason: String?, reasonKind: RetentionKind?, sites transform: (CallSite) -> CallSite
    ) -> SnapshotNode {
        var node = SnapshotNode(
            id: id, type: type, parent: parent, children: children, screen: screen, addedAt: addedAt,
            site: site.map(transform), doneAt: doneAt, deinitAt: deinitAt, verdict: verdict, reason: reason,
            reasonKind: reasonKind, removedFrom: removedFrom
        )
        node.boundSite = boundSite.map(transform)
        node.dismissedSite = dismissedSite.map(transform)
        node.dismissedVia = dismissedVia
        node.dismissedAt = dismissedAt
        node.removedSite = removedSite.map(transform)
        node.shownAgain = shownAgain
        node.keptOutOfLine = keptOutOfLine
        return node
    }
}
