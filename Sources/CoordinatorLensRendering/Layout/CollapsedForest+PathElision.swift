extension CollapsedForest.ItemTree {
    /// Draws the middle of every path longer than `bounds.longestPath` levels as one "… N more …" node, as the text
    /// report prints deep paths: the top `keptAbove` levels and the deepest `keptBelow` stay; what branches off the
    /// middle hangs under the omission. A chain a million deep draws as a dozen nodes.
    mutating func elideLongPaths(bounds: DrawingBounds) {
        let count = items.count
        var depth = [Int](repeating: 0, count: count)
        var height = [Int](repeating: 0, count: count)
        // `parentItem[k] < k` until omissions are added, so one pass each way gives depths and heights.
        for index in 0..<count where !removed[index] && parentItem[index] >= 0 { depth[index] = depth[parentItem[index]] + 1 }
        for index in (0..<count).reversed() where !removed[index] && parentItem[index] >= 0 {
            height[parentItem[index]] = max(height[parentItem[index]], height[index] + 1)
        }
        var elided = [Bool](repeating: false, count: count)
        var omissionOf = [Int](repeating: -1, count: count)
        var deepest: [Int: Int] = [:]
        var touched = Set<Int>()
        for index in 0..<count where !removed[index] {
            guard depth[index] >= bounds.keptAbove, height[index] >= bounds.keptBelow,
                depth[index] + height[index] >= bounds.longestPath
            else { continue }
            elided[index] = true
            let above = parentItem[index]
            let omission: Int
            if elided[above] {
                omission = omissionOf[above]
            } else {
                let anchor: Int =
                    switch items[index] {
                    case .node(let position): position
                    case .summary(let summary): summary.members[0]
                    case .omission(let omission): omission.anchor
                    }
                omission = append(.omission(.init(cause: .pathMiddle(levels: 0), coordinators: 0, anchor: anchor)), under: -1)
                parentItem[omission] = above
                touched.insert(above)
            }
            omissionOf[index] = omission
            deepest[omission] = max(deepest[omission] ?? 0, depth[index])
            if case .omission(var counted) = items[omission] {
                counted.coordinators += weight(index)
                counted.leaks += leaks(index)
                counted.cause = .pathMiddle(levels: deepest[omission]! - bounds.keptAbove + 1)
                items[omission] = .omission(counted)
            }
            removed[index] = true
        }
        guard !touched.isEmpty else { return }
        // The omission takes the place of the first elided item among its parent's children.
        for above in touched {
            var seen = Set<Int>()
            children[above] = children[above].compactMap { child in
                guard child < count, elided[child] else { return child }
                return seen.insert(omissionOf[child]).inserted ? omissionOf[child] : nil
            }
        }
        // What branches off an elided middle hangs under its omission, in pre-order.
        for index in 0..<count where !elided[index] && !removed[index] {
            let above = parentItem[index]
            guard above >= 0, above < count, elided[above] else { continue }
            parentItem[index] = omissionOf[above]
            children[omissionOf[above]].append(index)
        }
    }
}
