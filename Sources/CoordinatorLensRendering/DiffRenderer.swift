import CoordinatorLens
import Foundation

/// Turns a diff into the bytes of a file in any `RenderFormat`, as `SnapshotRenderer` does for one snapshot.
public enum DiffRenderer {
    /// The diff as `format`: SVG, PNG and PDF laid out by Graphviz; DOT as written; JSON as `TreeDiffJSON` (sorted
    /// keys, pretty printed). `sourceA` and `sourceB` name the two inputs.
    /// `all` draws every entry of a big diff; `grouping` lets unchanged siblings of one type share a summary.
    public static func render(
        _ diff: TreeDiff, format: RenderFormat, sourceA: String = "A", sourceB: String = "B", all: Bool = false,
        grouping: Bool = true
    ) throws(RenderError) -> [UInt8] {
        var writer = DiffDOTWriter(sourceA: sourceA, sourceB: sourceB)
        if all { writer.collapseThreshold = .max }
        writer.groupsSiblings = grouping
        switch format {
        case .svg, .png, .pdf:
            // Drawn whole, every entry is a node; collapsed, the bounds keep it far below the limit.
            if all { try GraphvizRenderer.checkLimits(nodes: diff.entries.count) }
            let document = writer.document(for: diff)
            return try GraphvizRenderer.shared.render(dot: document.text, format: format, layout: document.layout)
        case .dot:
            return Array(writer.write(diff).utf8)
        case .json:
            return try ReportJSON.encode(TreeDiffJSON(diff, sourceA: sourceA, sourceB: sourceB))
        }
    }
}
