/// Who places a picture's nodes: Graphviz's `dot` for a small tree, `TreeLayout` above `largeTreeThreshold` nodes,
/// and `WrappedTreeLayout` when a tree laid out one row per depth would be wider than `widest` points. Cairo scales
/// bitmaps down past 32,767 pixels a side, so a wide strip becomes an illegible PNG; wrapped, the picture keeps a
/// sensible aspect ratio and its PNG stays under 16,000 pixels a side up to thousands of nodes.
enum LayoutChoice {
    /// 12,000 points is 16,000 pixels at Graphviz's 96 dpi.
    static let widest = 12_000.0

    /// Positions to give Graphviz, or nil to let `dot` place the nodes.
    static func positions<ID: Hashable>(
        for boxes: [TreeLayout<ID>.Box], largeTreeThreshold: Int
    ) -> [ID: (x: Double, y: Double)]? {
        guard !boxes.isEmpty else { return nil }
        let natural = TreeLayout(boxes)
        guard natural.width > widest else { return boxes.count > largeTreeThreshold ? natural.positions : nil }
        // How rows wrap depends on the subtrees' sizes, so a few widths are tried (each a linear pass) and the one
        // closest to a 16:10 screen kept: the smallest larger side when the height is scaled to 1.6.
        let narrowest = boxes.map(\.width).max() ?? 0
        let candidates = [3_000.0, 4_500, 6_000, 8_000, 10_000, widest].map { max($0, narrowest) }
        let wrapped = WrappedTreeLayout(boxes)
        let best = candidates.map { width -> (width: Double, larger: Double) in
            let size = wrapped.size(maximumWidth: width)
            return (width, max(size.width, size.height * 1.6))
        }.min { $0.larger < $1.larger }!
        return wrapped.positions(maximumWidth: best.width)
    }
}
