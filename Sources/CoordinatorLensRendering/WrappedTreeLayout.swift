/// Places a forest top-down like `TreeLayout`, but never wider than `maximumWidth`: a node whose children's subtrees
/// would not fit side by side puts them in several rows, one below the other. A 4-ary tree of 1,000 coordinators
/// drawn whole is about 135,000 points wide in one row per depth, a strip that Cairo scales down to illegible PNGs;
/// wrapped, it is a few thousand points a side. Linear in the node count; positions depend only on the boxes, so the
/// same tree always lands the same way.
struct WrappedTreeLayout<ID: Hashable> {
    /// Centre of each node in points, y growing upwards as in Graphviz: the first row is y = 0, later ones below.
    private(set) var positions: [ID: (x: Double, y: Double)] = [:]
    /// The width of the whole forest in points.
    private(set) var width: Double = 0
    /// Its height in points.
    private(set) var height: Double = 0

    /// `boxes` in pre-order, as `TreeLayout` takes them.
    init(_ boxes: [TreeLayout<ID>.Box], maximumWidth: Double) {
        guard !boxes.isEmpty else { return }
        let gap = TreeLayout<ID>.horizontalGap
        let rowGap = TreeLayout<ID>.rowGap
        var index: [ID: Int] = [:]
        index.reserveCapacity(boxes.count)
        for (position, box) in boxes.enumerated() { index[box.id] = position }
        var children = [[Int]](repeating: [], count: boxes.count)
        var roots: [Int] = []
        for (position, box) in boxes.enumerated() {
            if let parent = box.parent, let parentPosition = index[parent], parentPosition < position {
                children[parentPosition].append(position)
            } else {
                roots.append(position)
            }
        }

        // Children packed greedily into rows no wider than the maximum; a subtree wider than that gets a row alone.
        func pack(_ kids: [Int], _ band: [Double], _ tall: [Double]) -> (rows: [[Int]], width: Double, height: Double) {
            var rows: [[Int]] = []
            var row: [Int] = []
            var rowWidth = 0.0
            for kid in kids {
                if !row.isEmpty, rowWidth + gap + band[kid] > maximumWidth {
                    rows.append(row)
                    row = []
                    rowWidth = 0
                }
                rowWidth += (row.isEmpty ? 0 : gap) + band[kid]
                row.append(kid)
            }
            if !row.isEmpty { rows.append(row) }
            let width = rows.map { Self.width(of: $0, band, gap) }.max() ?? 0
            let height = rows.reduce(0) { $0 + rowGap + ($1.map { tall[$0] }.max() ?? 0) }
            return (rows, width, height)
        }

        // Reverse pre-order meets every child before its parent: each subtree's band and height.
        var band = boxes.map(\.width)
        var tall = boxes.map(\.height)
        var rows = [[[Int]]](repeating: [], count: boxes.count)
        for position in boxes.indices.reversed() where !children[position].isEmpty {
            let packed = pack(children[position], band, tall)
            rows[position] = packed.rows
            band[position] = max(band[position], packed.width)
            tall[position] = boxes[position].height + packed.height
        }

        // Pre-order again: every node's top-left corner is set by its parent (or the root rows) before it is met.
        var left = [Double](repeating: 0, count: boxes.count)
        var top = [Double](repeating: 0, count: boxes.count)
        let rootRows = pack(roots, band, tall)
        var rowTop = 0.0
        for row in rootRows.rows {
            var cursor = 0.0
            for root in row {
                left[root] = cursor
                top[root] = rowTop
                cursor += band[root] + gap
            }
            rowTop += (row.map { tall[$0] }.max() ?? 0) + rowGap
        }
        width = rootRows.width
        height = max(0, rowTop - rowGap)
        positions.reserveCapacity(boxes.count)
        for position in boxes.indices {
            let box = boxes[position]
            positions[box.id] = (left[position] + band[position] / 2, -(top[position] + box.height / 2))
            var childTop = top[position] + box.height + rowGap
            for row in rows[position] {
                var cursor = left[position] + (band[position] - Self.width(of: row, band, gap)) / 2
                for kid in row {
                    left[kid] = cursor
                    top[kid] = childTop
                    cursor += band[kid] + gap
                }
                childTop += (row.map { tall[$0] }.max() ?? 0) + rowGap
            }
        }
    }

    private static func width(of row: [Int], _ band: [Double], _ gap: Double) -> Double {
        row.reduce(0) { $0 + band[$1] } + gap * Double(max(0, row.count - 1))
    }
}
