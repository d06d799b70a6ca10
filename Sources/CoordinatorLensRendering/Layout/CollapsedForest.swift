import CoordinatorLens

/// What a big tree is drawn as: every node on the way to one that matters (a leak, a pending coordinator, a change
/// in a diff) as itself, every subtree with none of those as one summary node, and runs of adjacent sibling subtrees
/// of one kind sharing one (`FeedItemCoordinator ×120`). Its size follows what matters, not the tree, so a picture of
/// 100,000 coordinators with three leaks fits on one screen. With `DrawingBounds` it stays small whatever the shape:
/// a row too wide groups its same-kind siblings, the middle of a long path becomes one "… N more …" node, and past a
/// cap the rest is counted, not drawn. Works on positions, so trees and diffs share it.
struct CollapsedForest {
    /// Subtrees drawn as one node: those of `members` (siblings of one kind), each with everything below it.
    struct Summary {
        var members: [Int]
        /// The position of the node they hang under; -1 for roots.
        var parent: Int
        /// Nodes in the members' subtrees, the members included.
        var total: Int
        /// How many of those fall under each tally (a verdict, "unchanged"), in first-seen order.
        var tallies: [(name: String, count: Int)]
        /// Siblings between the first and the last member that are not members: 0 for an adjacent run, the others
        /// for a group gathered from an interleaved row.
        var between = 0
    }

    /// Coordinators not drawn, counted in one node: the middle of a long path, or what is past the drawing's cap.
    struct Omission {
        enum Cause {
            /// Levels of a path longer than `DrawingBounds.longestPath`, between its top and its end.
            case pathMiddle(levels: Int)
            /// Children (and all below them) left out once `DrawingBounds.maximumItems` items were drawn.
            case cap
        }

        var cause: Cause
        /// The coordinators it stands for.
        var coordinators: Int
        /// How many of them are retained: a box that hides a leak says so, in red.
        var leaks = 0
        /// A position among them, the one that names the node (each coordinator is counted in one item only).
        var anchor: Int
    }

    /// A node of the drawing, in pre-order: a node drawn as itself, a summary, or an omission.
    enum Item {
        case node(Int)
        case summary(Summary)
        case omission(Omission)
    }

    private(set) var items: [Item] = []
    /// `parentItem[k]` is the item that item k hangs under, -1 for a root; always before k.
    private(set) var parentItem: [Int] = []
    /// Nodes drawn as part of a summary.
    private(set) var summarised = 0
    private(set) var summaries = 0
    /// Coordinators in the middle of long paths, drawn as "… N more …" nodes, and how many such nodes.
    private(set) var elided = 0
    private(set) var elisions = 0
    /// Coordinators past the cap, counted in "N more not drawn" nodes.
    private(set) var capped = 0
    /// Retained coordinators among them, and among those in the middle of long paths: a picture that hides a leak says so.
    private(set) var cappedLeaks = 0
    private(set) var elidedLeaks = 0

    /// `parent[i]` is node i's parent position (-1 for a root), nodes in pre-order; `matters[i]` keeps node i and
    /// its path from the root; `kind[i]` decides which siblings may share a summary (nil: `grouping` is off for
    /// all); `tally[i]` is what node i counts as in a summary's label; `width[i]` node i's width in points, to tell
    /// rows too wide. Roots always stay themselves. Without `bounds` nothing is grouped, elided or capped beyond
    /// what `matters` leaves out.
    init(
        parent: [Int], matters: [Bool], kind: (Int) -> String, tally: (Int) -> String, grouping: Bool,
        bounds: DrawingBounds? = nil, width: (Int) -> Double = { _ in 0 }
    ) {
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

        var items: [Item] = []
        var parentItem: [Int] = []
        var itemOfNode = [Int](repeating: -1, count: count)
        var open: (kind: String, summary: Summary, counts: [Int])?
        func close() {
            guard let run = open else { return }
            open = nil
            let above = run.summary.parent < 0 ? -1 : itemOfNode[run.summary.parent]
            // A lone node with nothing below it is drawn as itself: a summary of one says less.
            if run.summary.members.count == 1, run.summary.total == 1 {
                itemOfNode[run.summary.members[0]] = items.count
                items.append(.node(run.summary.members[0]))
                parentItem.append(above)
                return
            }
            var summary = run.summary
            summary.tallies = run.counts.indices.compactMap { run.counts[$0] > 0 ? (tallyNames[$0], run.counts[$0]) : nil }
            items.append(.summary(summary))
            parentItem.append(above)
        }
        var index = 0
        while index < count {
            if keeps[index] {
                close()
                itemOfNode[index] = items.count
                items.append(.node(index))
                parentItem.append(parent[index] < 0 ? -1 : itemOfNode[parent[index]])
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

        var tree = ItemTree(items: items, parentItem: parentItem)
        // What leads to something that matters is drawn before the rest of the tree when the picture is capped.
        tree.leads = items.map { if case .node(let index) = $0 { keeps[index] } else { false } }
        tree.leakNodes = (0..<count).map { tally($0) == Verdict.retained.rawValue }
        if let bounds {
            if grouping, bounds.groupsWideRows {
                tree.groupWideRows(bounds: bounds, parent: parent, kind: kind, tally: tally, width: width)
            }
            tree.elideLongPaths(bounds: bounds)
            tree.cap(bounds: bounds)
        }
        (self.items, self.parentItem) = tree.preOrder()
        for item in self.items {
            switch item {
            case .node: break
            case .summary(let summary):
                summaries += 1
                summarised += summary.total
            case .omission(let omission):
                switch omission.cause {
                case .pathMiddle:
                    elided += omission.coordinators
                    elidedLeaks += omission.leaks
                    elisions += 1
                case .cap:
                    capped += omission.coordinators
                    cappedLeaks += omission.leaks
                }
            }
        }
    }
}
