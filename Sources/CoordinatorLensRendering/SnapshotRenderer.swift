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

    /// `render`, writing the result to `stream` as it is made: for SVG, PNG and PDF libgvc writes into the stream, so a
    /// drawing of a big tree is never held in memory whole. The caller opens the stream, and closes it to flush it.
    package static func render(
        _ snapshot: Snapshot, format: RenderFormat, options: RenderOptions = RenderOptions(), to stream: UnsafeMutablePointer<FILE>
    ) throws(RenderError) {
        switch format {
        case .svg, .png, .pdf:
            let document = try DOTWriter(options: options).drawableDocument(for: snapshot)
            try GraphvizRenderer.shared.render(dot: document.text, format: format, layout: document.layout, to: stream)
        case .dot, .json:
            let bytes = try render(snapshot, format: format, options: options)
            guard bytes.withUnsafeBufferPointer({ fwrite($0.baseAddress, 1, $0.count, stream) }) == bytes.count else {
                throw .renderFailed(format: format.rawValue, message: "could not write the output (errno \(errno))")
            }
        }
    }
}
