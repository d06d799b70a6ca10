extension Snapshot {
    /// Whether `node` is retained under a living parent that, by the hook's retainer search, does not hold it (another
    /// object does, or nothing living): its tie to the parent is attachment in the tree, not ownership. False without
    /// a search result, where the parent is taken to hold it as before.
    package func isAttachedOnly(_ node: SnapshotNode) -> Bool {
        guard node.verdict == .retained, node.reasonKind == .stillChild, let parent = node.parent, let held = heldBy[node.id] else {
            return false
        }
        return held.rulesOut(holder: parent)
    }
}
