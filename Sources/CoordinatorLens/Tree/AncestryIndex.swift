/// Depths and roots of a snapshot's nodes, computed once for all of them, so that printing the path of every leak in a
/// 100,000-deep chain stays linear; long paths are cut the way `DeepPath` says.
struct AncestryIndex {
    private let snapshot: Snapshot
    private let name: (SnapshotNode) -> String
    private var places: [CoordinatorID: Place] = [:]
    /// The printed paths of the nodes others hang under: 20,000 leaks under one parent print its path once, not
    /// 20,000 times (2.7 µs a leak before). Kept up to `printedByteBudget`, so hostile names cannot make it a copy of
    /// every path.
    private var printedParents: [CoordinatorID: String] = [:]
    private var printedBytes = 0
    private static let printedByteBudget = 8 << 20

    /// Where a node sits: how many steps its path has, its topmost node, and whether walking up from it ends at a root
    /// (or an id the snapshot lacks) rather than going round a cycle, which only a decoded snapshot can hold.
    private struct Place {
        var depth: Int
        var root: CoordinatorID?
        var acyclic: Bool
    }

    /// An index over `snapshot` whose paths name each step with `name`.
    init(_ snapshot: Snapshot, name: @escaping (SnapshotNode) -> String) {
        self.snapshot = snapshot
        self.name = name
    }

    /// The path from the root to `id` as `App#1 › Home#2 › Yellow#5`; a detached node goes through the parent it left.
    mutating func path(to id: CoordinatorID) -> String {
        resolve(id)
        let place = places[id]
        let total = place?.depth ?? 1
        if total <= DeepPath.maximumSteps {
            // Outside a cycle a path is its parent's path and one more step.
            guard place?.acyclic == true, let node = snapshot.node(id) else { return printed(id) }
            guard let above = Self.above(node), snapshot.node(above) != nil else { return name(node) }
            return printedParent(above) + " › " + name(node)
        }
        var tail: [SnapshotNode] = []
        var current: CoordinatorID? = id
        while tail.count < DeepPath.keptSteps, let at = current, let node = snapshot.node(at) {
            tail.append(node)
            current = Self.above(node)
        }
        let top = place?.root.flatMap { snapshot.node($0) }.map { [name($0)] } ?? []
        let omitted = total - top.count - tail.count
        return (top + [DeepPath.omission(omitted)] + tail.reversed().map(name)).joined(separator: " › ")
    }

    private func printed(_ id: CoordinatorID) -> String {
        snapshot.path(to: id).map(name).joined(separator: " › ")
    }

    private mutating func printedParent(_ id: CoordinatorID) -> String {
        if let known = printedParents[id] { return known }
        let text = printed(id)
        if printedBytes < Self.printedByteBudget {
            printedParents[id] = text
            printedBytes += text.utf8.count
        }
        return text
    }

    private static func above(_ node: SnapshotNode) -> CoordinatorID? {
        node.parent ?? node.removedFrom
    }

    /// Fills in the place of `id` and every ancestor not yet known, walking up once, without recursion.
    private mutating func resolve(_ id: CoordinatorID) {
        guard places[id] == nil else { return }
        var chain: [CoordinatorID] = []
        var seen = Set<CoordinatorID>()
        var current: CoordinatorID? = id
        var closedCycle = false
        while let at = current, places[at] == nil {
            guard seen.insert(at).inserted else {
                closedCycle = true
                break
            }
            guard let node = snapshot.node(at) else { break }
            chain.append(at)
            current = Self.above(node)
        }
        // The walk stopped at a known place, at a cycle, at an id the snapshot lacks, or at the top.
        let anchor = current.flatMap { places[$0] }
        var aboveDepth = anchor?.depth ?? 0
        let top = anchor?.root ?? chain.last
        let acyclic = anchor?.acyclic ?? !closedCycle
        for at in chain.reversed() {
            aboveDepth += 1
            places[at] = Place(depth: aboveDepth, root: top, acyclic: acyclic)
        }
    }
}
