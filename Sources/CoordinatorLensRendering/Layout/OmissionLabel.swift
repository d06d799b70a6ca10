import CoordinatorLens

/// How an omission node reads and looks, in trees and diffs alike: the middle of a long path (`… 999,987 more …`)
/// or what a capped picture leaves out (`4,310 more not drawn`), a dashed box that counts what it stands for.
enum OmissionLabel {
    static func lines(_ omission: CollapsedForest.Omission) -> (head: String, detail: String) {
        let count = NumberText.grouped(omission.coordinators)
        switch omission.cause {
        case .pathMiddle(let levels):
            return ("… \(count) more …", "\(NumberText.grouped(levels)) level\(levels == 1 ? "" : "s") of a long path left out")
        case .cap where omission.leaks > 0:
            return ("\(count) more not drawn", "\(NumberText.grouped(omission.leaks)) retained among them; --all draws every one")
        case .cap:
            return ("\(count) more not drawn", "the picture is capped; --all draws every one")
        }
    }

    /// Points, as `DOTWriter` estimates its nodes.
    static func estimatedSize(_ omission: CollapsedForest.Omission) -> (width: Double, height: Double) {
        let (head, detail) = lines(omission)
        return (Swift.max(Double(head.count) * 12, Double(detail.count) * 10) * 0.62 + 2 * NodeDetail.sideMargin * 72, 15 + 12.5 + 2 * 0.06 * 72)
    }

    /// The omission's node statement, named `name` (an id made of fixed tokens).
    static func statement(name: String, _ omission: CollapsedForest.Omission, at position: (x: Double, y: Double)?) -> String {
        let (head, detail) = lines(omission)
        let why =
            switch omission.cause {
            case .pathMiddle: "the middle of a path too long to draw; --focus ID draws any coordinator in it with its path"
            case .cap: "more than the picture can show; --all (or Show all) draws every one, --focus ID one part"
            }
        // A count that hides a leak is outlined as a leak is: red, never grey.
        let look =
            omission.leaks > 0
            ? "class=\"omission holds-retained\", style=\"rounded,dashed\", color=\"\(NodeLook.leakRed)\", penwidth=3"
            : "class=\"omission\", style=\"rounded,dashed\", color=\"\(NodeLook.edgeGrey)\""
        return "  \(name) [id=\"\(name)\", \(look), "
            + "fontcolor=\"#1f2328\"\(DOTPreamble.pos(position, size: estimatedSize(omission))), "
            + "label=<<B>\(head)</B><BR/>\(DOTPreamble.small(detail))>, "
            + "tooltip=\(DOTEscaping.tooltip(["\(NumberText.grouped(omission.coordinators)) coordinators not drawn" + (omission.leaks > 0 ? ", \(NumberText.grouped(omission.leaks)) of them retained" : ""), why]))];\n"
    }
}
