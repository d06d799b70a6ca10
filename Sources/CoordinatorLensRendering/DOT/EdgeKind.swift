import CoordinatorLens

/// What an edge of the tree says about its child, one kind per look: the SVG's classes and the canvas's strokes both
/// follow it, so the two pictures of one tree never disagree.
package enum EdgeKind: String, Sendable {
    /// A live parent holding its child, as most do.
    case held
    /// A live parent still holding a retained child: the bold red "who holds it".
    case holdsRetained = "holds-retained"
    /// Removed from this parent (red when something else keeps it).
    case detached
    /// Hung under a live parent the retainer search found does not hold it.
    case attached
    /// An object watched with its coordinator, beside it rather than held by it.
    case watched
    /// To or from a deinited coordinator: the link holds nothing any more.
    case gone

    init(from parent: SnapshotNode, to child: SnapshotNode, detached: Bool, attachedOnly: Bool) {
        if detached {
            self = .detached
        } else if attachedOnly {
            self = .attached
        } else if child.watched == true {
            self = .watched
        } else if child.verdict == .retained && !parent.verdict.isGone {
            self = .holdsRetained
        } else if child.verdict.isGone || parent.verdict.isGone {
            self = .gone
        } else {
            self = .held
        }
    }
}
