/// Every coordinator's path from its root as `DeepPath` prints it (whole up to `DeepPath.maximumSteps` steps, else
/// the root, a count of left-out steps and the last `DeepPath.keptSteps`), in time linear in the tree's size: roots
/// and depths are remembered as they are found, so no path is walked twice. `Snapshot.path(to:)` walks the whole
/// path each time, which for every coordinator of a chain 100,000 deep is 5 × 10⁹ steps.
struct PathIndex {
    private let snapshot: Snapshot
    /// Each node's root and its depth below it (roots are 0), once known.
    private var known: [CoordinatorID: (root: CoordinatorID, depth: Int)] = [:]

    init(_ snapshot: Snapshot) {
        self.snapshot = snapshot
        known.reserveCapacity(snapshot.nodes.count)
    }

    /// A detached coordinator's path goes through the parent it left, as `Snapshot.path(to:)` has it.
    private func above(_ id: CoordinatorID) -> CoordinatorID? {
        guard let node = snapshot.node(id) else { return nil }
        return node.parent ?? node.removedFrom
    }

    /// The ids from the root down to `id`, and how many steps after the root were left out.
    mutating func path(to id: CoordinatorID) -> (ids: [CoordinatorID], omitted: Int) {
        let (root, depth) = locate(id)
        guard depth + 1 > DeepPath.maximumSteps else {
            var chain: [CoordinatorID] = [id]
            var current = id
            while current != root, let next = above(current) {
                chain.append(next)
                current = next
            }
            return (chain.reversed(), 0)
        }
        var tail: [CoordinatorID] = [id]
        var current = id
        while tail.count < DeepPath.keptSteps, let next = above(current) {
            tail.append(next)
            current = next
        }
        return ([root] + tail.reversed(), depth + 1 - 1 - DeepPath.keptSteps)
    }

    /// The root and depth of `id`, walking up only to the first node already known; a cycle (impossible in a
    /// snapshot the core built) ends the walk where it closes, as `Snapshot.path(to:)` does.
    private mutating func locate(_ id: CoordinatorID) -> (root: CoordinatorID, depth: Int) {
        if let found = known[id] { return found }
        var walked: [CoordinatorID] = []
        var onWalk = Set<CoordinatorID>()
        var current = id
        var base: (root: CoordinatorID, depth: Int)
        while true {
            if let found = known[current] {
                base = found
                break
            }
            walked.append(current)
            onWalk.insert(current)
            guard let next = above(current), snapshot.node(next) != nil, !onWalk.contains(next) else {
                base = (current, -1)
                break
            }
            current = next
        }
        // `walked` runs from `id` up; the last one sits just below `base` (or is the root itself).
        var depth = base.depth
        for node in walked.reversed() {
            depth += 1
            known[node] = (base.root, depth)
        }
        return known[id]!
    }
}
