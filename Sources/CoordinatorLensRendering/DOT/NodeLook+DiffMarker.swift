import CoordinatorLens

extension NodeLook {
    /// A merged diff tree's node by its marker; a leak both runs share is shaded.
    init(_ marker: DiffMarker, stillLeaking: Bool = false) {
        switch marker {
        case .added:
            self.init(fill: "#dafbe1", outline: Self.addedGreen, text: "#1f2328", style: "rounded,filled", penwidth: 2)
        case .gone:
            self.init(
                fill: "#f6f8fa", outline: NodeLook.goneGrey, text: NodeLook.goneText, style: "rounded,filled,dashed", penwidth: 1
            )
        case .newLeak:
            self.init(fill: NodeLook.leakFill, outline: NodeLook.leakOutline, text: "#ffffff", style: "rounded,filled,bold", penwidth: 3)
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
}
