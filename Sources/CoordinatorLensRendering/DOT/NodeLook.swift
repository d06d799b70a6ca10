import CoordinatorLens

/// How a node is drawn: one palette for the colours the nodes, edges and legends of trees and diffs share.
struct NodeLook {
    var fill: String
    var outline: String
    var text: String
    var style: String
    var penwidth: Int

    /// The leak colour, for retained nodes and the edges from the parents that still hold them.
    static let leakRed = "#e5484d"
    static let edgeGrey = "#57606a"
    static let goneGrey = "#8c959f"
    static let addedGreen = "#1a7f37"
    static let stillLeakingFill = "#ffd7d5"

    /// A tree's node by its verdict.
    init(_ verdict: Verdict) {
        switch verdict {
        case .alive:
            self.init(fill: "#ffffff", outline: "#1f2328", text: "#1f2328", style: "rounded,filled", penwidth: 1)
        case .pending:
            // Lighter than the red so the two differ in lightness too, not only in hue.
            self.init(fill: "#ffa94d", outline: "#c2410c", text: "#1f2328", style: "rounded,filled", penwidth: 1)
        case .retained:
            self.init(fill: Self.leakRed, outline: "#a3141b", text: "#ffffff", style: "rounded,filled", penwidth: 2)
        case .released, .late:
            self.init(
                fill: "#f6f8fa", outline: Self.goneGrey, text: "#6e7781", style: "rounded,filled,dashed", penwidth: 1
            )
        }
    }

    init(fill: String, outline: String, text: String, style: String, penwidth: Int) {
        self.fill = fill
        self.outline = outline
        self.text = text
        self.style = style
        self.penwidth = penwidth
    }
}

extension Verdict {
    /// Whether the coordinator has deinited, so it is no longer part of the live tree.
    var isGone: Bool { self == .released || self == .late }
}
