extension Snapshot {
    /// The same snapshot with every app, run, type, screen and reason text cut to `maxCharacters` (plus `…`), so a
    /// huge name cannot make a picture huge; `cut` counts the texts that were shortened.
    public func cuttingNames(to maxCharacters: Int) -> (snapshot: Snapshot, cut: Int) {
        var cut = 0
        func short(_ text: String) -> String {
            guard text.utf8.count > maxCharacters, text.count > maxCharacters else { return text }
            cut += 1
            return String(text.prefix(maxCharacters)) + "…"
        }
        func short(_ text: String?) -> String? { text.map { short($0) } }
        let nodes = nodes.map { node in
            SnapshotNode(
                id: node.id, type: short(node.type), parent: node.parent, children: node.children,
                screen: short(node.screen), addedAt: node.addedAt, site: node.site, doneAt: node.doneAt,
                deinitAt: node.deinitAt, verdict: node.verdict, reason: short(node.reason), reasonKind: node.reasonKind,
                removedFrom: node.removedFrom
            )
        }
        let app = short(app), run = short(run)
        guard cut > 0 else { return (self, 0) }
        return (
            Snapshot(
                app: app, run: run, pid: pid, evaluatedAt: evaluatedAt, grace: grace, lastSeq: lastSeq, ended: ended,
                roots: roots, nodes: nodes, marks: marks, warnings: warnings
            ),
            cut
        )
    }
}
