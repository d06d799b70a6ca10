import CoordinatorLens

extension CollapsedForest {
    /// The items of a drawing as a tree, for the passes that bound it; `preOrder()` gives them back in drawing order.
    struct ItemTree {
        var items: [Item]
        var parentItem: [Int]
        var children: [[Int]]
        var removed: [Bool]
        /// Items on the way to something that matters (a leak, a change), which a cap keeps before their siblings.
        var leads: [Bool] = []
        /// By node position: whether it is a retained coordinator, for the leaks an omission counts.
        var leakNodes: [Bool] = []

        init(items: [Item], parentItem: [Int]) {
            self.items = items
            self.parentItem = parentItem
            children = [[Int]](repeating: [], count: items.count)
            removed = [Bool](repeating: false, count: items.count)
            for (index, above) in parentItem.enumerated() where above >= 0 { children[above].append(index) }
        }

        var roots: [Int] { items.indices.filter { parentItem[$0] < 0 && !removed[$0] } }

        /// Adds `item` under `above` (-1: a root) as its last child.
        mutating func append(_ item: Item, under above: Int) -> Int {
            items.append(item)
            parentItem.append(above)
            children.append([])
            removed.append(false)
            leads.append(false)
            if above >= 0 { children[above].append(items.count - 1) }
            return items.count - 1
        }

        /// Coordinators an item stands for on its own (not counting the items below it).
        func weight(_ index: Int) -> Int {
            switch items[index] {
            case .node: 1
            case .summary(let summary): summary.total
            case .omission(let omission): omission.coordinators
            }
        }

        /// Retained coordinators an item stands for on its own (not counting the items below it).
        func leaks(_ index: Int) -> Int {
            switch items[index] {
            case .node(let position): position < leakNodes.count && leakNodes[position] ? 1 : 0
            case .summary(let summary): summary.tallies.first { $0.name == Verdict.retained.rawValue }?.count ?? 0
            case .omission(let omission): omission.leaks
            }
        }

        /// The items in pre-order (each parent before its children, children in order) and each one's parent.
        func preOrder() -> (items: [Item], parentItem: [Int]) {
            var order: [Item] = []
            var parents: [Int] = []
            order.reserveCapacity(items.count)
            var stack: [(index: Int, parentPosition: Int)] = roots.reversed().map { ($0, -1) }
            while let (index, above) = stack.popLast() {
                let position = order.count
                order.append(items[index])
                parents.append(above)
                for child in children[index].reversed() where !removed[child] { stack.append((child, position)) }
            }
            return (order, parents)
        }
    }
}
