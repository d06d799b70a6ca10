extension CollapsedForest.ItemTree {
    /// Keeps at most `bounds.maximumItems` items, and under each kept item counts what was left out below it in one
    /// "N more not drawn" node. What leads to something that matters (a leak, a pending coordinator, a change) is
    /// taken first, level by level, up to `bounds.maximumLeadItems`: taken level by level with the rest, 300 leaks of
    /// a 100,000-coordinator app were never reached before the cap, and the picture showed none of them. Then the rest,
    /// level by level from the roots, while the cap allows. An omission that holds a leak counts it.
    mutating func cap(bounds: DrawingBounds) {
        let live = items.indices.filter { !removed[$0] }
        guard live.count > bounds.maximumItems else { return }
        var taken = [Bool](repeating: false, count: items.count)
        var takenCount = 0
        var queue = roots
        var head = 0
        while head < queue.count {
            let index = queue[head]
            head += 1
            guard parentItem[index] < 0 || takenCount < bounds.maximumLeadItems else { continue }
            taken[index] = true
            takenCount += 1
            queue += children[index].filter { !removed[$0] && leads[$0] }
        }
        // The rest, only under what is taken: an item left out takes everything below it along.
        queue = roots
        head = 0
        while head < queue.count {
            let index = queue[head]
            head += 1
            if !taken[index] {
                guard takenCount < bounds.maximumItems else { continue }
                taken[index] = true
                takenCount += 1
            }
            queue += children[index].filter { !removed[$0] }
        }
        // Weights of whole subtrees, children before parents: reverse pre-order.
        var order: [Int] = []
        var stack = roots
        while let index = stack.popLast() {
            order.append(index)
            stack += children[index].filter { !removed[$0] }
        }
        var subtree = [Int](repeating: 0, count: items.count)
        var subtreeLeaks = [Int](repeating: 0, count: items.count)
        for index in order.reversed() {
            subtree[index] += weight(index)
            subtreeLeaks[index] += leaks(index)
            if parentItem[index] >= 0 {
                subtree[parentItem[index]] += subtree[index]
                subtreeLeaks[parentItem[index]] += subtreeLeaks[index]
            }
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
            var omission = CollapsedForest.Omission(cause: .cap, coordinators: left.reduce(0) { $0 + subtree[$1] }, anchor: anchor)
            omission.leaks = left.reduce(0) { $0 + subtreeLeaks[$1] }
            _ = append(.omission(omission), under: index)
        }
        for index in order where !taken[index] { removed[index] = true }
    }
}
