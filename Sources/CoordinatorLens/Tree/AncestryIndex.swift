/// Depths and roots of a snapshot's nodes, computed once for all of them, so that printing the path of every leak in a
/// 100,000-deep chain stays linear; long paths are cut the way `DeepPath` says. Steps are named `Type#id`.
///
/// It reads nodes by position, a field at a time: copying a node retains and releases each of its strings and sites,
/// and a report of 20,000 leaks did that for every step of every path.
struct AncestryIndex {
    private let snapshot: Snapshot
    private var places: [Int: Place] = [:]
    /// The printed paths of the nodes others hang under: 20,000 leaks under one parent print its path once, not
    /// 20,000 times. Kept up to `printedByteBudget`, so hostile names cannot make it a copy of every path.
    private var printedParents: [Int: String] = [:]
    private var printedBytes = 0
    private static let printedByteBudget = 8 << 20

    /// Where a node sits: how many steps its path has, the position of its topmost node, and whether walking up from
    /// it ends at a root (or an id the snapshot lacks) rather than going round a cycle, which only a decoded snapshot
    /// can hold.
    private struct Place {
        var depth: Int
        var root: Int
        var acyclic: Bool
    }

    /// An index over `snapshot`.
    init(_ snapshot: Snapshot) {
        self.snapshot = snapshot
    }

    /// The path from the root to `id` as `App#1 › Home#2 › Yellow#5`; a detached node goes through the parent it left.
    mutating func path(to id: CoordinatorID) -> String {
        guard let position = snapshot.position(of: id) else { return "" }
        let place = resolve(position)
        if place.depth <= DeepPath.maximumSteps {
            // Outside a cycle a path is its parent's path and one more step.
            guard place.acyclic else { return printed(position) }
            guard let above = above(position) else { return name(position) }
            return printedParent(above) + " › " + name(position)
        }
        var tail: [String] = []
        var current: Int? = position
        while tail.count < DeepPath.keptSteps, let at = current {
            tail.append(name(at))
            current = above(at)
        }
        let omitted = place.depth - 1 - tail.count
        return ([name(place.root), DeepPath.omission(omitted)] + tail.reversed()).joined(separator: " › ")
    }

    private func name(_ position: Int) -> String {
        "\(snapshot.nodes[position].type)#\(snapshot.nodes[position].id)"
    }

    /// The position of the node a path goes through above this one: its parent, or the parent it was removed from.
    private func above(_ position: Int) -> Int? {
        (snapshot.nodes[position].parent ?? snapshot.nodes[position].removedFrom).flatMap(snapshot.position(of:))
    }

    /// The whole path, walked step by step: for a node in a cycle, which stops where the walk comes round.
    private func printed(_ position: Int) -> String {
        snapshot.path(to: snapshot.nodes[position].id).map { "\($0.type)#\($0.id)" }.joined(separator: " › ")
    }

    private mutating func printedParent(_ position: Int) -> String {
        if let known = printedParents[position] { return known }
        let text = printed(position)
        if printedBytes < Self.printedByteBudget {
            printedParents[position] = text
            printedBytes += text.utf8.count
        }
        return text
    }

    /// The place of `position`, filling in every ancestor not yet known on the way, walking up once, without recursion.
    private mutating func resolve(_ position: Int) -> Place {
        if let known = places[position] { return known }
        // Most nodes hang under one already placed (siblings share their parent): one step, no walk.
        if let above = above(position), above != position, let parent = places[above] {
            let place = Place(depth: parent.depth + 1, root: parent.root, acyclic: parent.acyclic)
            places[position] = place
            return place
        }
        var chain: [Int] = []
        var seen = Set<Int>()
        var current: Int? = position
        var closedCycle = false
        while let at = current, places[at] == nil {
            guard seen.insert(at).inserted else {
                closedCycle = true
                break
            }
            chain.append(at)
            current = above(at)
        }
        // The walk stopped at a known place, at a cycle, or at the top (a root, or a parent the snapshot lacks).
        let anchor = current.flatMap { places[$0] }
        var aboveDepth = anchor?.depth ?? 0
        let top = anchor?.root ?? chain.last!
        let acyclic = anchor?.acyclic ?? !closedCycle
        for at in chain.reversed() {
            aboveDepth += 1
            places[at] = Place(depth: aboveDepth, root: top, acyclic: acyclic)
        }
        return places[position]!
    }
}
