/// Where every coordinator of a snapshot sits in type-path terms: the node it hangs under, its ordinal among the
/// same-type siblings there, and each node's children; nodes are named by their position in `snapshot.nodes`.
///
/// A coordinator hangs under its parent or, once a `remove` detached it, under the parent it left: a fixed leak is
/// usually a child that is now removed, and it must still match the child that was not. Children and ordinals follow
/// the order coordinators were first added, which the same flow repeats from run to run.
package struct TypePathIndex: Sendable {
    /// The indexed snapshot; every position here is an index into its `nodes`.
    package let snapshot: Snapshot
    /// For each node, the position of the node it hangs under, or -1 for a root.
    package let home: [Int]
    /// For each node, its ordinal among the nodes of its type under the same home.
    package let ordinal: [Int]
    /// For each node, its type's number: an index into `typeNames`.
    let typeNumber: [Int]
    /// The distinct types, in the order first seen.
    let typeNames: [String]
    /// For each node, its index in its home's `children(of:)` (or in `roots`).
    package let siblingIndex: [Int]
    /// The nodes that hang under nothing, in the order they were first added.
    package let roots: [Int]
    // Every node's children laid end to end, in the order they were first added; node i's are
    // childList[childStart[i] ..< childStart[i + 1]]. One flat array instead of 100,000 small ones.
    private let childStart: [Int]
    private let childList: [Int]

    /// Indexes `snapshot`; linear in its size, whatever the tree's depth.
    package init(_ snapshot: Snapshot) {
        self.snapshot = snapshot
        let nodes = snapshot.nodes
        let count = nodes.count
        var positionByID: [CoordinatorID: Int] = [:]
        positionByID.reserveCapacity(count)
        // Fields are read in place, index by index: copying whole nodes out of the array costs more than the rest.
        for position in 0..<count {
            positionByID[nodes[position].id] = positionByID[nodes[position].id] ?? position
        }
        var home = [Int](repeating: -1, count: count)
        for position in 0..<count {
            if let above = (nodes[position].parent ?? nodes[position].removedFrom).flatMap({ positionByID[$0] }),
                above != position
            {
                home[position] = above
            }
        }
        Self.breakCycles(&home)

        // Types as small numbers, so ordinals and matching hash integers rather than type names.
        var typeNumberByName: [String: Int] = [:]
        var typeNames: [String] = []
        var typeNumber = [Int](repeating: 0, count: count)
        var childCount = [Int](repeating: 0, count: count + 1)
        for position in 0..<count {
            let name = nodes[position].type
            if let known = typeNumberByName[name] {
                typeNumber[position] = known
            } else {
                typeNumber[position] = typeNames.count
                typeNumberByName[name] = typeNames.count
                typeNames.append(name)
            }
            if home[position] >= 0 { childCount[home[position] + 1] += 1 }
        }

        var childStart = childCount
        for index in 1..<childStart.count { childStart[index] += childStart[index - 1] }
        var fill = childStart
        var childList = [Int](repeating: 0, count: childStart[count])
        var siblingIndex = [Int](repeating: 0, count: count)
        var roots: [Int] = []
        for position in 0..<count {
            let above = home[position]
            if above < 0 {
                siblingIndex[position] = roots.count
                roots.append(position)
            } else {
                siblingIndex[position] = fill[above] - childStart[above]
                childList[fill[above]] = position
                fill[above] += 1
            }
        }

        // Each sibling list counts its types in one array, reset after it for just the types it touched.
        var ordinal = [Int](repeating: 0, count: count)
        var seen = [Int](repeating: 0, count: typeNames.count)
        func number<Siblings: Collection<Int>>(_ siblings: Siblings) {
            for position in siblings {
                ordinal[position] = seen[typeNumber[position]]
                seen[typeNumber[position]] += 1
            }
            for position in siblings { seen[typeNumber[position]] = 0 }
        }
        number(roots)
        for position in 0..<count where childStart[position] < childStart[position + 1] {
            number(childList[childStart[position]..<childStart[position + 1]])
        }

        self.home = home
        self.typeNumber = typeNumber
        self.typeNames = typeNames
        self.ordinal = ordinal
        self.siblingIndex = siblingIndex
        self.roots = roots
        self.childStart = childStart
        self.childList = childList
    }

    /// The nodes that hang under the node at `position`, in the order they were first added.
    package func children(of position: Int) -> ArraySlice<Int> {
        childList[childStart[position]..<childStart[position + 1]]
    }

    /// The type path of the node at `position`.
    package func path(of position: Int) -> TypePath {
        var steps: [TypePath.Step] = []
        var current = position
        while current >= 0 {
            steps.append(TypePath.Step(type: snapshot.nodes[current].type, ordinal: ordinal[current]))
            current = home[current]
        }
        return TypePath(steps.reversed())
    }

    /// Makes the home links a forest. The tree's own parents never cycle, but a detached coordinator's former parent
    /// may since have been attached below it, and a hand-written snapshot may say anything: the link that closes a
    /// cycle is dropped, so that node becomes a root.
    private static func breakCycles(_ home: inout [Int]) {
        let unvisited: UInt8 = 0
        let walking: UInt8 = 1
        let settled: UInt8 = 2
        var state = [UInt8](repeating: unvisited, count: home.count)
        var walk: [Int] = []
        for start in home.indices where state[start] == unvisited {
            var current = start
            while current >= 0, state[current] == unvisited {
                state[current] = walking
                walk.append(current)
                current = home[current]
            }
            if current >= 0, state[current] == walking, let last = walk.last {
                home[last] = -1
            }
            for position in walk { state[position] = settled }
            walk.removeAll(keepingCapacity: true)
        }
    }
}
