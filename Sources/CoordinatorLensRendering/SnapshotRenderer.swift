import CoordinatorLens
import Foundation

/// Turns a snapshot into the bytes of a file in any `RenderFormat`: the entry point the CLI and the server use.
public enum SnapshotRenderer {
    /// The snapshot as `format`: SVG, PNG and PDF laid out by Graphviz; DOT as written, without a layout; JSON as the
    /// `Snapshot` itself (sorted keys, pretty printed), which reads back with `JSONDecoder`.
    public static func render(
        _ snapshot: Snapshot, format: RenderFormat, options: RenderOptions = RenderOptions()
    ) throws(RenderError) -> [UInt8] {
        switch format {
        case .svg, .png, .pdf:
            let document = try DOTWriter(options: options).drawableDocument(for: snapshot)
            return try GraphvizRenderer.shared.render(dot: document.text, format: format, layout: document.layout)
        case .dot:
            return Array(DOTWriter(options: options).write(snapshot).utf8)
        case .json:
            return try ReportJSON.encode(snapshot)
        }
    }

}
