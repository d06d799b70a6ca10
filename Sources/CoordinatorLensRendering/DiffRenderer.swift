import CoordinatorLens
import Foundation

/// Turns a diff into the bytes of a file in any `RenderFormat`, as `SnapshotRenderer` does for one snapshot.
public enum DiffRenderer {
    /// The diff as `format`: SVG, PNG and PDF laid out by Graphviz; DOT as written; JSON as `TreeDiffJSON` (sorted
    /// keys, pretty printed). `sourceA` and `sourceB` name the two inputs.
    public static func render(
        _ diff: TreeDiff, format: RenderFormat, sourceA: String = "A", sourceB: String = "B"
    ) throws(RenderError) -> [UInt8] {
        let writer = DiffDOTWriter(sourceA: sourceA, sourceB: sourceB)
        switch format {
        case .svg, .png, .pdf:
            return try GraphvizRenderer.shared.render(dot: writer.write(diff), format: format)
        case .dot:
            return Array(writer.write(diff).utf8)
        case .json:
            return try ReportJSON.encode(TreeDiffJSON(diff, sourceA: sourceA, sourceB: sourceB))
        }
    }
}
