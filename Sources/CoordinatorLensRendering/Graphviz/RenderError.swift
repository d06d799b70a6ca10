import CoordinatorLens
import Foundation

/// Why a snapshot or a DOT text could not be rendered.
public enum RenderError: Error, Hashable, CustomStringConvertible, LocalizedError {
    /// Graphviz rejected the DOT text; the message is Graphviz's own.
    case invalidDOT(message: String)
    /// Graphviz has no such layout engine, which almost always means its plugin configuration is missing.
    case layoutUnavailable(engine: String, message: String)
    /// Graphviz has no renderer for the format, which almost always means its plugin configuration is missing.
    case formatUnavailable(format: String, message: String)
    /// The layout engine ran and reported an error.
    case layoutFailed(message: String)
    /// The renderer ran and reported an error.
    case renderFailed(format: String, message: String)
    /// `gvContext()` returned no context.
    case contextUnavailable
    /// The drawing has more nodes than libgvc can lay out and draw without exhausting its stack or the memory
    /// (`GraphvizRenderer.maximumNodes`); only a drawing of every coordinator (`--all`) gets there.
    case tooBig(nodes: Int, limit: Int)
    /// The snapshot could not be encoded as JSON (for example a time that is not a finite number).
    case encodingFailed(message: String)

    private static let pluginHint = "plugins not configured; run `dot -c` or `libgvc6-config-update -c` as root"

    public var description: String {
        switch self {
        case .invalidDOT(let message):
            "Graphviz could not parse the DOT: \(message)"
        case .layoutUnavailable(let engine, let message):
            "Graphviz knows no layout '\(engine)' — \(Self.pluginHint) (Graphviz said: \(message))"
        case .formatUnavailable(let format, let message):
            "Graphviz cannot write '\(format)' — \(Self.pluginHint) (Graphviz said: \(message))"
        case .layoutFailed(let message):
            "Graphviz failed to lay the graph out: \(message)"
        case .renderFailed(let format, let message):
            "Graphviz failed to write '\(format)': \(message)"
        case .contextUnavailable:
            "Graphviz could not create its context (gvContext returned NULL)"
        case .tooBig(let nodes, let limit):
            "\(NumberText.grouped(nodes)) nodes are too many to draw whole: libgvc is given at most \(NumberText.grouped(limit)) "
                + "(past that its own recursion overflows its stack); draw without --all (long paths and big rows are then "
                + "summarised), or one part with --focus ID or --depth N"
        case .encodingFailed(let message):
            "the snapshot could not be encoded as JSON: \(message)"
        }
    }

    public var errorDescription: String? { description }
}
