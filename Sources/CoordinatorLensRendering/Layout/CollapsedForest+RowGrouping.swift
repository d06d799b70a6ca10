extension CollapsedForest.ItemTree {
    /// Under every parent whose row of children would be wider than `bounds.targetRowWidth`, the leaves of one kind
    /// (same type and verdict, drawn alone or already summarised) become one summary in place of the first of them,
    /// however they interleave: 100,000 retained siblings among 900,000 alive ones draw as two nodes, each counting
    /// the siblings between its first and last member.
    mutating func groupWideRows(
        bounds: DrawingBounds, parent: [Int], kind: (Int) -> String, tally: (Int) -> String, width: (Int) -> Double
    ) {
        // Each node's place among its parent's children, to count the siblings between a group's ends.
        var ordinal = [Int](repeating: 0, count: parent.count)
        var nextOrdinal: [Int: Int] = [:]
        for index in parent.indices {
            ordinal[index] = nextOrdinal[parent[index], default: 0]
            nextOrdinal[parent[index]] = ordinal[index] + 1
        }
        func firstNode(_ item: Int) -> Int? {
            switch items[item] {
            case .node(let index): index
            case .summary(let summary): summary.members[0]
            case .omission: nil
            }
        }
        let gap = TreeLayout<Int>.horizontalGap
        for above in items.indices where children[above].count > 1 {
            guard case .node(let parentPosition) = items[above] else { continue }
            let row = children[above]
            let rowWidth = row.reduce(0) { $0 + (firstNode($1).map(width) ?? 0) } + gap * Double(row.count - 1)
            guard rowWidth > bounds.targetRowWidth else { continue }
            var groupOf: [String: Int] = [:]
            var members: [Int: [Int]] = [:]
            for child in row where children[child].isEmpty {
                guard let first = firstNode(child) else { continue }
                let key = kind(first)
                if let leader = groupOf[key] {
                    members[leader]!.append(child)
                } else {
                    groupOf[key] = child
                    members[child] = [child]
                }
            }
            for (leader, group) in members where group.count > 1 {
                var merged = CollapsedForest.Summary(members: [], parent: parentPosition, total: 0, tallies: [])
                var tallyCounts: [(name: String, count: Int)] = []
                func count(_ name: String, _ amount: Int) {
                    if let slot = tallyCounts.firstIndex(where: { $0.name == name }) {
                        tallyCounts[slot].count += amount
                    } else {
                        tallyCounts.append((name, amount))
                    }
                }
                for item in group {
                    switch items[item] {
                    case .node(let index):
                        merged.members.append(index)
                        merged.total += 1
                        count(tally(index), 1)
                    case .summary(let summary):
                        merged.members += summary.members
                        merged.total += summary.total
                        for entry in summary.tallies { count(entry.name, entry.count) }
                    case .omission:
                        continue
                    }
                    if item != leader { removed[item] = true }
                }
                merged.tallies = tallyCounts
                let span = ordinal[merged.members.last!] - ordinal[merged.members[0]] + 1
                merged.between = span - merged.members.count
                items[leader] = .summary(merged)
            }
        }
    }
}
