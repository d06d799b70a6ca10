import CoordinatorLens

/// How a diff marker is drawn: one place for the colours the merged tree's nodes, edges and legend share.
struct DiffLook {
    var fill: String
    var outline: String
    var text: String
    var style: String
    var penwidth: Int

    static let addedGreen = "#1a7f37"
    static let stillLeakingFill = "#ffd7d5"

    init(_ marker: DiffMarker, stillLeaking: Bool = false) {
        switch marker {
        case .added:
            self.init(fill: "#dafbe1", outline: Self.addedGreen, text: "#1f2328", style: "rounded,filled", penwidth: 2)
        case .gone:
            self.init(
                fill: "#f6f8fa", outline: VerdictLook.goneGrey, text: "#6e7781", style: "rounded,filled,dashed", penwidth: 1
            )
        case .newLeak:
            self.init(fill: VerdictLook.leakRed, outline: "#a3141b", text: "#ffffff", style: "rounded,filled,bold", penwidth: 3)
        case .fixedLeak:
            // White inside, so a fixed leak reads apart from an added coordinator by its outline alone.
            self.init(fill: "#ffffff", outline: Self.addedGreen, text: "#1f2328", style: "rounded,filled", penwidth: 3)
        case .unchanged where stillLeaking:
            self.init(fill: Self.stillLeakingFill, outline: "#1f2328", text: "#1f2328", style: "rounded,filled", penwidth: 1)
        case .unchanged:
            self.init(fill: "#ffffff", outline: "#1f2328", text: "#1f2328", style: "rounded,filled", penwidth: 1)
        case .changed:
            let fill = stillLeaking ? Self.stillLeakingFill : "#fff8c5"
            self.init(fill: fill, outline: "#9a6700", text: "#1f2328", style: "rounded,filled", penwidth: 2)
        }
    }

    private init(fill: String, outline: String, text: String, style: String, penwidth: Int) {
        self.fill = fill
        self.outline = outline
        self.text = text
        self.style = style
        self.penwidth = penwidth
    }
}
