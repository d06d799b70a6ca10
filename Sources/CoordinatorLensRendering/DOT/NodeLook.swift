import CoordinatorLens

/// How a node is drawn: one palette for the colours the nodes, edges and legends of trees and diffs share.
struct NodeLook {
    var fill: String
    var outline: String
    var text: String
    var style: String
    var penwidth: Int

    /// The leak colour, for the edges from the parents that still hold a retained node and the outlines of what
    /// holds one.
    static let leakRed = "#e5484d"
    /// A retained node's fill, darker than `leakRed`: white text reads at 5.4:1 on it (on `leakRed`, 3.9:1).
    static let leakFill = "#cf222e"
    static let leakOutline = "#82071e"
    /// A released node's text on its light grey: 6.0:1 (the lighter `#6e7781` read at 4.3:1).
    static let goneText = "#57606a"
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
            self.init(fill: Self.leakFill, outline: Self.leakOutline, text: "#ffffff", style: "rounded,filled", penwidth: 2)
        case .released, .late:
            self.init(
                fill: "#f6f8fa", outline: Self.goneGrey, text: Self.goneText, style: "rounded,filled,dashed", penwidth: 1
            )
        }
    }

    /// A tree's node by its verdict, square in a compact drawing (rounded corners are a quarter of libgvc's SVG
    /// writing time there).
    init(_ verdict: Verdict, detail: NodeDetail) {
        self.init(verdict)
        if detail == .compact { style = style.split(separator: ",").filter { $0 != "rounded" }.joined(separator: ",") }
    }

    init(fill: String, outline: String, text: String, style: String, penwidth: Int) {
        self.fill = fill
        self.outline = outline
        self.text = text
        self.style = style
        self.penwidth = penwidth
    }
}

extension NodeLook {
    /// The look as DOT attributes: `style="rounded,filled", fillcolor="#ffffff", …`.
    var attributes: String {
        attributes(differingFrom: nil)
    }

    /// Only the attributes that differ from `base`, each with a leading `, ` after the first: what a node statement
    /// needs under defaults of `base`'s look.
    func attributes(differingFrom base: NodeLook?) -> String {
        var parts: [String] = []
        if style != base?.style { parts.append("style=\"\(style)\"") }
        if fill != base?.fill { parts.append("fillcolor=\"\(fill)\"") }
        if outline != base?.outline { parts.append("color=\"\(outline)\"") }
        if text != base?.text { parts.append("fontcolor=\"\(text)\"") }
        if penwidth != base?.penwidth { parts.append("penwidth=\(penwidth)") }
        return parts.joined(separator: ", ")
    }
}

extension Verdict {
    /// Whether the coordinator has deinited, so it is no longer part of the live tree.
    var isGone: Bool { self == .released || self == .late }
}
