/// Depths and root-side path prefixes of a snapshot's nodes, computed once for all of them, so that printing the
/// path of every leak in a 100,000-deep chain stays linear.
struct AncestryIndex {
    /// How many nodes a printed path keeps at each end before it elides the middle.
    static let kept = 3

    private let snapshot: Snapshot
    private var depth: [CoordinatorID: Int] = [:]
    /// The first `kept` nodes from the root down, for each node whose path has been asked for.
    private var head: [CoordinatorID: [CoordinatorID]] = [:]

    init(_ snapshot: Snapshot) {
        self.snapshot = snapshot
    }

    /// The path from the root to `id` as `App#1 › Home#2 › Yellow#5`, with `… N more` in the middle when it is long.
    mutating func path(to id: CoordinatorID, name: (SnapshotNode) -> String) -> String {
        resolve(id)
        let total = depth[id] ?? 1
        if total <= 2 * Self.kept + 1 {
            return snapshot.path(to: id).map(name).joined(separator: " › ")
        }
        var tail: [SnapshotNode] = []
        var current: CoordinatorID? = id
        while tail.count < Self.kept, let at = current, let node = snapshot.node(at) {
            tail.append(node)
            current = node.parent ?? node.removedFrom
        }
        let top = (head[id] ?? []).compactMap { snapshot.node($0) }.map(name)
        let elided = total - top.count - tail.count
        return (top + ["… \(elided) more"] + tail.reversed().map(name)).joined(separator: " › ")
    }

    /// Fills in depth and head for `id` and every ancestor not yet known, walking up once, without recursion.
    private mutating func resolve(_ id: CoordinatorID) {
        var chain: [CoordinatorID] = []
        var seen = Set<CoordinatorID>()
        var current: CoordinatorID? = id
        while let at = current, depth[at] == nil, seen.insert(at).inserted, let node = snapshot.node(at) {
            chain.append(at)
            current = node.parent ?? node.removedFrom
        }
        let anchor = current.flatMap { depth[$0] == nil ? nil : $0 }
        var aboveDepth = anchor.map { depth[$0]! } ?? 0
        var aboveHead = anchor.map { head[$0]! } ?? []
        for at in chain.reversed() {
            aboveDepth += 1
            if aboveHead.count < Self.kept { aboveHead.append(at) }
            depth[at] = aboveDepth
            head[at] = aboveHead
        }
    }
}
