import Foundation

/// Who places a picture's nodes: Graphviz's `dot` for a small tree, `TreeLayout` above `largeTreeThreshold` nodes,
/// and `WrappedTreeLayout` when a tree laid out one row per depth would be wider than `widest` points. Cairo scales
/// bitmaps down past 32,767 pixels a side, so a wide strip becomes an illegible PNG; wrapped, the picture keeps a
/// sensible aspect ratio and its PNG stays under 16,000 pixels a side up to thousands of nodes. A small tree laid out
/// here (the page's) is also fitted to its screen's shape (`wrappedToFit`), so that its titles read at fit.
enum LayoutChoice {
    /// 12,000 points is 16,000 pixels at Graphviz's 96 dpi.
    static let widest = 12_000.0
    /// Trees up to this many boxes wrap to their screen's shape. Beyond it the picture is a summary or a map (no
    /// title reads at fit whatever the shape), and `dot`'s layout of it is what users have learned to read.
    static let fitsScreenUpTo = 300
    /// How much larger a wrapped tree must fit than the one-row-per-depth one to be worth the unfamiliar shape.
    static let worthwhileGain = 1.25

    /// Edges are routed around the boxes (`splines=true`) in a tree wrapped to its screen of up to this many boxes,
    /// so that an edge to a second row of a grid never crosses the first. libgvc's routing grows steeply: measured
    /// through the page, 0.17 s at 50 boxes, 1.1 s at 100, 3.6 s at 150 and 23.7 s at 291; straight lines cost nothing.
    static let routesAroundBoxesUpTo = 60

    /// Where a picture's nodes go, and whether Graphviz should route its edges around the boxes.
    struct Placement<ID: Hashable> {
        /// Positions to give Graphviz; nil: `dot` places the nodes.
        var positions: [ID: (x: Double, y: Double)]?
        var routesAroundBoxes = false
    }

    /// Positions to give Graphviz, or nil to let `dot` place the nodes.
    static func positions<ID: Hashable>(
        for boxes: [TreeLayout<ID>.Box], largeTreeThreshold: Int
    ) -> [ID: (x: Double, y: Double)]? {
        placement(for: boxes, largeTreeThreshold: largeTreeThreshold, aspect: nil).positions
    }

    /// `positions(for:largeTreeThreshold:)`, and with `aspect`, the width over the height of the screen the picture is
    /// fitted to, a small tree wraps its wide rows (nil: no screen, only `widest` wraps).
    static func placement<ID: Hashable>(
        for boxes: [TreeLayout<ID>.Box], largeTreeThreshold: Int, aspect: Double?
    ) -> Placement<ID> {
        guard !boxes.isEmpty else { return Placement() }
        let natural = TreeLayout(boxes)
        guard natural.width > widest else {
            // `dot` packs a tree tighter than the bands measured here, so only a tree laid out here anyway is wrapped.
            guard boxes.count > largeTreeThreshold else { return Placement() }
            if let aspect, boxes.count <= fitsScreenUpTo, let wrapped = wrappedToFit(boxes, aspect: aspect) {
                return Placement(positions: wrapped, routesAroundBoxes: boxes.count <= routesAroundBoxesUpTo)
            }
            return Placement(positions: natural.positions)
        }
        // How rows wrap depends on the subtrees' sizes, so a few widths are tried (each a linear pass) and the one
        // closest to a 16:10 screen kept: the smallest larger side when the height is scaled to 1.6.
        let narrowest = boxes.map(\.width).max() ?? 0
        let candidates = [3_000.0, 4_500, 6_000, 8_000, 10_000, widest].map { max($0, narrowest) }
        let wrapped = WrappedTreeLayout(boxes)
        let best = candidates.map { width -> (width: Double, larger: Double) in
            let size = wrapped.size(maximumWidth: width)
            return (width, max(size.width, size.height * 1.6))
        }.min { $0.larger < $1.larger }!
        return Placement(positions: wrapped.positions(maximumWidth: best.width))
    }

    /// The tree wrapped to the width that fits it largest into a screen of `aspect`, when that is `worthwhileGain`
    /// larger than unwrapped; nil otherwise. Runs of childless siblings drawn as grids (`LeafGridLayout`) keep the
    /// shape people know from `dot`. Only a frame taller than wide (a phone's) may also stack subtrees one below the
    /// other (`WrappedTreeLayout`), and only when that fits it larger by more than `familiarShapeMargin` allows: on a
    /// wide frame the stacked subtrees' long edges made a summarised 1,000-coordinator tree harder to follow than its
    /// wide strip. Sixteen widths from the widest box to the whole row, each a linear pass.
    static func wrappedToFit<ID: Hashable>(_ boxes: [TreeLayout<ID>.Box], aspect: Double) -> [ID: (x: Double, y: Double)]? {
        // The scale at which a picture of this size fills a screen `aspect` wide and 1 tall.
        func scale(_ size: (width: Double, height: Double)) -> Double { min(aspect / max(size.width, 1), 1 / max(size.height, 1)) }
        let grid = LeafGridLayout(boxes)
        let whole = grid.size(maximumWidth: .infinity)
        let narrowest = boxes.map(\.width).max() ?? 0
        guard whole.width > narrowest else { return nil }
        let steps = 16
        let widths = (0...steps).map { narrowest * pow(whole.width / narrowest, Double($0) / Double(steps)) }
        func best(_ size: (Double) -> (width: Double, height: Double)) -> (width: Double, scale: Double) {
            widths.map { ($0, scale(size($0))) }.max { $0.1 < $1.1 }!
        }
        let grids = best { grid.size(maximumWidth: $0) }
        if aspect < 1 {
            let stacked = WrappedTreeLayout(boxes)
            let stacks = best { stacked.size(maximumWidth: $0) }
            if grids.scale < stacks.scale * familiarShapeMargin, stacks.scale >= scale(whole) * worthwhileGain {
                return stacked.positions(maximumWidth: stacks.width)
            }
        }
        guard grids.scale >= scale(whole) * worthwhileGain else { return nil }
        return grid.positions(maximumWidth: grids.width)
    }

    /// How much smaller than the largest fit the familiar shape may be and still be chosen.
    static let familiarShapeMargin = 0.85
}
