import CoordinatorLens

/// What a big tree is drawn as: every coordinator on the way to a retained or pending one as itself, and every
/// subtree with neither in it as one summary node, runs of same-type siblings with the same verdict sharing one
/// (`FeedItemCoordinator ×120`). Readable at any size, since its size follows the leaks, not the tree.
struct CollapsedForest {
    /// Subtrees drawn as one node: the roots of `members` (same parent, same type, same verdict, adjacent siblings)
    /// and everything below them.
    struct Summary {
        var members: [SnapshotNode]
        var parent: CoordinatorID?
        /// Coordinators in the members' subtrees, the members included.
        var total: Int
        var counts: [Verdict: Int]
    }

    /// A node of the drawing, in pre-order: a coordinator, or a summary.
    enum Item {
        case coordinator(SnapshotNode, parent: SnapshotNode?, detached: Bool)
        case summary(Summary)
    }

    private(set) var items: [Item] = []
    /// Coordinators drawn as part of a summary.
    private(set) var summarised = 0
    private(set) var summaries = 0

    /// `placements` is the drawn forest in pre-order, each with its parent; `grouping` merges runs of siblings.
    init(_ placements: [(node: SnapshotNode, parent: SnapshotNode?, detached: Bool)], grouping: Bool) {
        let count = placements.count
        var position: [CoordinatorID: Int] = [:]
        position.reserveCapacity(count)
        for (index, placement) in placements.enumerated() { position[placement.node.id] = index }
        let parentIndex = placements.map { $0.parent.flatMap { position[$0.id] } ?? -1 }
        // Reverse pre-order meets every node after its whole subtree: sizes, verdict counts and whether a leak or a
        // pending coordinator is inside.
        var keeps = [Bool](repeating: false, count: count)
        var size = [Int](repeating: 1, count: count)
        var counts = [[Int]](repeating: [Int](repeating: 0, count: Verdict.allCases.count), count: count)
        let verdictIndex = Dictionary(uniqueKeysWithValues: Verdict.allCases.enumerated().map { ($1, $0) })
        for index in (0..<count).reversed() {
            let verdict = placements[index].node.verdict
            counts[index][verdictIndex[verdict]!] += 1
            // Roots always stay themselves, so even a tree with no leak shows its top and what hangs below it.
            if verdict == .retained || verdict == .pending || parentIndex[index] < 0 { keeps[index] = true }
            let parent = parentIndex[index]
            guard parent >= 0 else { continue }
            size[parent] += size[index]
            for slot in counts[index].indices { counts[parent][slot] += counts[index][slot] }
            if keeps[index] { keeps[parent] = true }
        }

        var open: (parent: Int, type: String, verdict: Verdict, summary: Summary)?
        func close() {
            guard let run = open else { return }
            open = nil
            // A lone coordinator with nothing below it is drawn as itself: a summary of one says less.
            if run.summary.members.count == 1, run.summary.total == 1 {
                let node = run.summary.members[0]
                let placement = placements[position[node.id]!]
                items.append(.coordinator(node, parent: placement.parent, detached: placement.detached))
                return
            }
            items.append(.summary(run.summary))
            summaries += 1
            summarised += run.summary.total
        }
        var index = 0
        while index < count {
            let placement = placements[index]
            let parent = parentIndex[index]
            if keeps[index] {
                close()
                items.append(.coordinator(placement.node, parent: placement.parent, detached: placement.detached))
                index += 1
                continue
            }
            let verdict = placement.node.verdict
            let subtreeCounts = Dictionary(uniqueKeysWithValues: Verdict.allCases.enumerated().compactMap { slot, verdict in
                counts[index][slot] > 0 ? (verdict, counts[index][slot]) : nil
            })
            if grouping, let run = open, run.parent == parent, run.type == placement.node.type, run.verdict == verdict {
                open!.summary.members.append(placement.node)
                open!.summary.total += size[index]
                open!.summary.counts.merge(subtreeCounts, uniquingKeysWith: +)
            } else {
                close()
                open = (parent, placement.node.type, verdict, Summary(
                    members: [placement.node], parent: placement.parent?.id, total: size[index], counts: subtreeCounts
                ))
            }
            // The whole subtree is in the summary: on to the next sibling, or whatever follows it in pre-order.
            index += size[index]
            if index < count, keeps[index] || parentIndex[index] != parent { close() }
        }
        close()
    }
}
