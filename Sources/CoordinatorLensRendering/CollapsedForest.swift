/// What a big tree is drawn as: every node on the way to one that matters (a leak, a pending coordinator, a change
/// in a diff) as itself, every subtree with none of those as one summary node, and runs of adjacent sibling subtrees
/// of one kind sharing one (`FeedItemCoordinator ×120`). Its size follows what matters, not the tree, so a picture of
/// 100,000 coordinators with three leaks fits on one screen. Works on positions, so trees and diffs share it.
struct CollapsedForest {
    /// Subtrees drawn as one node: those of `members` (adjacent siblings of one kind), each with everything below it.
    struct Summary {
        var members: [Int]
        /// The position of the node they hang under; -1 for roots.
        var parent: Int
        /// Nodes in the members' subtrees, the members included.
        var total: Int
        /// How many of those fall under each tally (a verdict, "unchanged"), in first-seen order.
        var tallies: [(name: String, count: Int)]
    }

    /// A node of the drawing, in pre-order: a node drawn as itself, or a summary.
    enum Item {
        case node(Int)
        case summary(Summary)
    }

    private(set) var items: [Item] = []
    /// Nodes drawn as part of a summary.
    private(set) var summarised = 0
    private(set) var summaries = 0

    /// `parent[i]` is node i's parent position (-1 for a root), nodes in pre-order; `matters[i]` keeps node i and
    /// its path from the root; `kind[i]` decides which siblings may share a summary (nil: `grouping` is off for
    /// all); `tally[i]` is what node i counts as in a summary's label. Roots always stay themselves.
    init(parent: [Int], matters: [Bool], kind: (Int) -> String, tally: (Int) -> String, grouping: Bool) {
        let count = parent.count
        var keeps = matters
        var size = [Int](repeating: 1, count: count)
        var tallyNames: [String] = []
        var tallyNumber: [String: Int] = [:]
        let tallyOf = (0..<count).map { index -> Int in
            let name = tally(index)
            if let number = tallyNumber[name] { return number }
            tallyNumber[name] = tallyNames.count
            tallyNames.append(name)
            return tallyNames.count - 1
        }
        var tallies = [[Int]](repeating: [], count: count)
        // Reverse pre-order meets every node after its whole subtree: sizes, tallies, and whether anything inside
        // matters.
        for index in (0..<count).reversed() {
            if tallies[index].isEmpty { tallies[index] = [Int](repeating: 0, count: tallyNames.count) }
            tallies[index][tallyOf[index]] += 1
            if parent[index] < 0 { keeps[index] = true }
            let above = parent[index]
            guard above >= 0 else { continue }
            size[above] += size[index]
            if tallies[above].isEmpty { tallies[above] = [Int](repeating: 0, count: tallyNames.count) }
            for slot in tallies[index].indices { tallies[above][slot] += tallies[index][slot] }
            if keeps[index] { keeps[above] = true }
        }

        var open: (kind: String, summary: Summary, counts: [Int])?
        func close() {
            guard let run = open else { return }
            open = nil
            // A lone node with nothing below it is drawn as itself: a summary of one says less.
            if run.summary.members.count == 1, run.summary.total == 1 {
                items.append(.node(run.summary.members[0]))
                return
            }
            var summary = run.summary
            summary.tallies = run.counts.indices.compactMap { run.counts[$0] > 0 ? (tallyNames[$0], run.counts[$0]) : nil }
            items.append(.summary(summary))
            summaries += 1
            summarised += summary.total
        }
        var index = 0
        while index < count {
            if keeps[index] {
                close()
                items.append(.node(index))
                index += 1
                continue
            }
            let key = kind(index)
            if grouping, let run = open, run.summary.parent == parent[index], run.kind == key {
                open!.summary.members.append(index)
                open!.summary.total += size[index]
                for slot in tallies[index].indices { open!.counts[slot] += tallies[index][slot] }
            } else {
                close()
                open = (key, Summary(members: [index], parent: parent[index], total: size[index], tallies: []), tallies[index])
            }
            // The whole subtree is in the summary (pre-order keeps it contiguous): on to what follows it.
            let sibling = parent[index]
            index += size[index]
            if index < count, keeps[index] || parent[index] != sibling { close() }
        }
        close()
    }
}
