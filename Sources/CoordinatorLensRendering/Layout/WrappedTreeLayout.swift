/// Places a forest top-down like `TreeLayout`, but no wider than a maximum: a node whose children's subtrees would
/// not fit side by side puts them in several rows, one below the other. A 4-ary tree of 1,000 coordinators drawn
/// whole is about 135,000 points wide in one row per depth, a strip that Cairo scales down to illegible PNGs; wrapped,
/// it is a few thousand points a side. Linear in the node count for each width tried; the same boxes always land the
/// same way.
struct WrappedTreeLayout<ID: Hashable> {
    private let boxes: [TreeLayout<ID>.Box]
    private let children: [[Int]]
    private let roots: [Int]
    private let gap = TreeLayout<ID>.horizontalGap
    private let rowGap = TreeLayout<ID>.rowGap

    /// `boxes` in pre-order, as `TreeLayout` takes them.
    init(_ boxes: [TreeLayout<ID>.Box]) {
        self.boxes = boxes
        let links = ForestLinks(boxes)
        (children, roots) = (links.children, links.roots)
    }

    /// How wide and tall the forest is when no row may be wider than `maximumWidth` points (a subtree wider than that
    /// gets a row alone).
    func size(maximumWidth: Double) -> (width: Double, height: Double) {
        let measured = measure(maximumWidth)
        return (measured.rootRows.width, measured.rootRows.height - rowGap)
    }

    /// Centre of each node in points, y growing upwards as in Graphviz: the first row at y = 0, later ones below.
    func positions(maximumWidth: Double) -> [ID: (x: Double, y: Double)] {
        let (rows, band, tall, rootRows) = measure(maximumWidth)
        var left = [Double](repeating: 0, count: boxes.count)
        var top = [Double](repeating: 0, count: boxes.count)
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
        // Pre-order: every node's corner is set by its parent (or the root rows) before the node is met.
        var positions: [ID: (x: Double, y: Double)] = [:]
        positions.reserveCapacity(boxes.count)
        for position in boxes.indices {
            let box = boxes[position]
            positions[box.id] = (left[position] + band[position] / 2, -(top[position] + box.height / 2))
            var childTop = top[position] + box.height + rowGap
            for row in rows[position] {
                var cursor = left[position] + (band[position] - width(of: row, band)) / 2
                for kid in row {
                    left[kid] = cursor
                    top[kid] = childTop
                    cursor += band[kid] + gap
                }
                childTop += (row.map { tall[$0] }.max() ?? 0) + rowGap
            }
        }
        return positions
    }

    /// Each node's rows of children, its subtree's band and height, and the roots' rows.
    private func measure(_ maximumWidth: Double) -> (
        rows: [[[Int]]], band: [Double], tall: [Double], rootRows: (rows: [[Int]], width: Double, height: Double)
    ) {
        var band = boxes.map(\.width)
        var tall = boxes.map(\.height)
        var rows = [[[Int]]](repeating: [], count: boxes.count)
        // Reverse pre-order meets every child before its parent.
        for position in boxes.indices.reversed() where !children[position].isEmpty {
            let packed = pack(children[position], band, tall, maximumWidth)
            rows[position] = packed.rows
            band[position] = max(band[position], packed.width)
            tall[position] = boxes[position].height + packed.height
        }
        return (rows, band, tall, pack(roots, band, tall, maximumWidth))
    }

    /// Subtrees packed greedily into rows no wider than `maximumWidth`; the height includes a gap above each row.
    private func pack(_ kids: [Int], _ band: [Double], _ tall: [Double], _ maximumWidth: Double) -> (rows: [[Int]], width: Double, height: Double) {
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
        let width = rows.map { self.width(of: $0, band) }.max() ?? 0
        let height = rows.reduce(0) { $0 + rowGap + ($1.map { tall[$0] }.max() ?? 0) }
        return (rows, width, height)
    }

    private func width(of row: [Int], _ band: [Double]) -> Double {
        row.reduce(0) { $0 + band[$1] } + gap * Double(max(0, row.count - 1))
    }
}
