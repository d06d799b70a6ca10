extension CollapsedForest.ItemTree {
    /// Keeps at most `bounds.maximumItems` items, taken level by level from the roots (so the top of the tree is
    /// what shows; in each row what leads to a leak first), and under each kept item counts what was left out below
    /// it in one "N more not drawn" node.
    mutating func cap(bounds: DrawingBounds) {
        let live = items.indices.filter { !removed[$0] }
        guard live.count > bounds.maximumItems else { return }
        var taken = [Bool](repeating: false, count: items.count)
        var queue = roots
        var head = 0
        var takenCount = 0
        while head < queue.count, takenCount < bounds.maximumItems || parentItem[queue[head]] < 0 {
            let index = queue[head]
            head += 1
            taken[index] = true
            takenCount += 1
            let row = children[index].filter { !removed[$0] }
            queue += row.filter { leads[$0] } + row.filter { !leads[$0] }
        }
        // Weights of whole subtrees, children before parents: reverse pre-order.
        var order: [Int] = []
        var stack = roots
        while let index = stack.popLast() {
            order.append(index)
            stack += children[index].filter { !removed[$0] }
        }
        var subtree = [Int](repeating: 0, count: items.count)
        for index in order.reversed() {
            subtree[index] += weight(index)
            if parentItem[index] >= 0 { subtree[parentItem[index]] += subtree[index] }
        }
        for index in order where taken[index] {
            let left = children[index].filter { !removed[$0] && !taken[$0] }
            guard let first = left.first else { continue }
            let anchor: Int =
                switch items[first] {
                case .node(let position): position
                case .summary(let summary): summary.members[0]
                case .omission(let omission): omission.anchor
                }
            let coordinators = left.reduce(0) { $0 + subtree[$1] }
            _ = append(.omission(.init(cause: .cap, coordinators: coordinators, anchor: anchor)), under: index)
        }
        for index in order where !taken[index] { removed[index] = true }
    }
}
