/// Depths and roots of a snapshot's nodes, computed once for all of them, so that printing the path of every leak in a
/// 100,000-deep chain stays linear; long paths are cut the way `DeepPath` says.
struct AncestryIndex {
    private let snapshot: Snapshot
    private var depth: [CoordinatorID: Int] = [:]
    private var root: [CoordinatorID: CoordinatorID] = [:]

    init(_ snapshot: Snapshot) {
        self.snapshot = snapshot
    }

    /// The path from the root to `id` as `App#1 › Home#2 › Yellow#5`; a detached node goes through the parent it left.
    mutating func path(to id: CoordinatorID, name: (SnapshotNode) -> String) -> String {
        resolve(id)
        let total = depth[id] ?? 1
        if total <= DeepPath.maximumSteps {
            return snapshot.path(to: id).map(name).joined(separator: " › ")
        }
        var tail: [SnapshotNode] = []
        var current: CoordinatorID? = id
        while tail.count < DeepPath.keptSteps, let at = current, let node = snapshot.node(at) {
            tail.append(node)
            current = Self.above(node)
        }
        let top = root[id].flatMap { snapshot.node($0) }.map { [name($0)] } ?? []
        let omitted = total - top.count - tail.count
        return (top + [DeepPath.omission(omitted)] + tail.reversed().map(name)).joined(separator: " › ")
    }

    private static func above(_ node: SnapshotNode) -> CoordinatorID? {
        node.parent ?? node.removedFrom
    }

    /// Fills in depth and root for `id` and every ancestor not yet known, walking up once, without recursion.
    private mutating func resolve(_ id: CoordinatorID) {
        var chain: [CoordinatorID] = []
        var seen = Set<CoordinatorID>()
        var current: CoordinatorID? = id
        while let at = current, depth[at] == nil, seen.insert(at).inserted, let node = snapshot.node(at) {
            chain.append(at)
            current = Self.above(node)
        }
        let anchor = current.flatMap { depth[$0] == nil ? nil : $0 }
        var aboveDepth = anchor.flatMap { depth[$0] } ?? 0
        let top = anchor.flatMap { root[$0] } ?? chain.last
        for at in chain.reversed() {
            aboveDepth += 1
            depth[at] = aboveDepth
            root[at] = top
        }
    }
}
