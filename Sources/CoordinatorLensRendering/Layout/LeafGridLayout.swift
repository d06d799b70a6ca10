/// Places a forest top-down like `TreeLayout`, with every run of childless siblings drawn as a grid no wider than a
/// maximum, beside its subtree siblings, in their order: nine tabs under a tab tray become three rows of three, six
/// screens and a checkout flow become a block of screens with the flow beside it. Subtrees never stack below one
/// another, so the picture keeps the shape `dot` gives a tree, only narrower. Linear in the node count for each
/// width tried; the same boxes always land the same way.
struct LeafGridLayout<ID: Hashable> {
    /// What a row of children holds: one subtree, or a run of leaves packed into rows (`rows` of positions).
    private enum Slot {
        case subtree(Int)
        case leaves(rows: [[Int]], width: Double, height: Double)
    }

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

    /// How wide and tall the forest is when no run of leaves may be wider than `maximumWidth` points.
    func size(maximumWidth: Double) -> (width: Double, height: Double) {
        let measured = measure(maximumWidth)
        let row = rowSize(measured.rootSlots, measured.band, measured.tall)
        return (row.width, row.height)
    }

    /// Centre of each node in points, y growing upwards as in Graphviz: the first row at y = 0, later ones below.
    func positions(maximumWidth: Double) -> [ID: (x: Double, y: Double)] {
        let (slots, band, tall, rootSlots) = measure(maximumWidth)
        var left = [Double](repeating: 0, count: boxes.count)
        var top = [Double](repeating: 0, count: boxes.count)
        place(rootSlots, from: 0, top: 0, band: band, left: &left, topOf: &top)
        var positions: [ID: (x: Double, y: Double)] = [:]
        positions.reserveCapacity(boxes.count)
        // Pre-order: every node's corner is set by its parent (or the roots' row) before the node is met.
        for position in boxes.indices {
            let box = boxes[position]
            positions[box.id] = (left[position] + band[position] / 2, -(top[position] + box.height / 2))
            guard !slots[position].isEmpty else { continue }
            let width = rowSize(slots[position], band, tall).width
            place(
                slots[position], from: left[position] + (band[position] - width) / 2, top: top[position] + box.height + rowGap,
                band: band, left: &left, topOf: &top)
        }
        return positions
    }

    /// Sets the corner of everything in one row of slots, from `from` at `top`.
    private func place(_ row: [Slot], from: Double, top: Double, band: [Double], left: inout [Double], topOf: inout [Double]) {
        var cursor = from
        for slot in row {
            switch slot {
            case .subtree(let kid):
                (left[kid], topOf[kid]) = (cursor, top)
                cursor += band[kid] + gap
            case .leaves(let rows, let width, _):
                var rowTop = top
                for leaves in rows {
                    var x = cursor
                    for leaf in leaves {
                        (left[leaf], topOf[leaf]) = (x, rowTop)
                        x += boxes[leaf].width + gap
                    }
                    rowTop += (leaves.map { boxes[$0].height }.max() ?? 0) + rowGap
                }
                cursor += width + gap
            }
        }
    }

    /// Each node's row of slots, its subtree's band and height, and the roots' row.
    private func measure(_ maximumWidth: Double) -> (slots: [[Slot]], band: [Double], tall: [Double], rootSlots: [Slot]) {
        var band = boxes.map(\.width)
        var tall = boxes.map(\.height)
        var slots = [[Slot]](repeating: [], count: boxes.count)
        // Reverse pre-order meets every child before its parent.
        for position in boxes.indices.reversed() where !children[position].isEmpty {
            slots[position] = self.slots(children[position], maximumWidth)
            let row = rowSize(slots[position], band, tall)
            band[position] = max(band[position], row.width)
            tall[position] = boxes[position].height + rowGap + row.height
        }
        return (slots, band, tall, self.slots(roots, maximumWidth))
    }

    /// `kids` as slots: each subtree alone, each run of leaves packed greedily into rows no wider than `maximumWidth`.
    private func slots(_ kids: [Int], _ maximumWidth: Double) -> [Slot] {
        var slots: [Slot] = []
        var run: [Int] = []
        func endRun() {
            guard !run.isEmpty else { return }
            var rows: [[Int]] = []
            var row: [Int] = []
            var rowWidth = 0.0
            for leaf in run {
                if !row.isEmpty, rowWidth + gap + boxes[leaf].width > maximumWidth {
                    rows.append(row)
                    (row, rowWidth) = ([], 0)
                }
                rowWidth += (row.isEmpty ? 0 : gap) + boxes[leaf].width
                row.append(leaf)
            }
            rows.append(row)
            let width = rows.map { $0.reduce(0) { $0 + boxes[$1].width } + gap * Double($0.count - 1) }.max() ?? 0
            let height = rows.reduce(0) { $0 + ($1.map { boxes[$0].height }.max() ?? 0) } + rowGap * Double(rows.count - 1)
            slots.append(.leaves(rows: rows, width: width, height: height))
            run = []
        }
        for kid in kids {
            if children[kid].isEmpty {
                run.append(kid)
            } else {
                endRun()
                slots.append(.subtree(kid))
            }
        }
        endRun()
        return slots
    }

    /// A row of slots' width, and its height: its tallest slot.
    private func rowSize(_ row: [Slot], _ band: [Double], _ tall: [Double]) -> (width: Double, height: Double) {
        var (width, height) = (0.0, 0.0)
        for slot in row {
            switch slot {
            case .subtree(let kid): (width, height) = (width + band[kid], max(height, tall[kid]))
            case .leaves(_, let slotWidth, let slotHeight): (width, height) = (width + slotWidth, max(height, slotHeight))
            }
        }
        return (width + gap * Double(max(0, row.count - 1)), height)
    }
}
