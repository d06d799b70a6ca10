import CoordinatorLens

/// How a summary node reads and looks, in trees and diffs alike: its head (`FeedItemCoordinator ×120`), how many
/// more hang below, and its tallies (`all alive`, `30 alive, 2 released`, `all unchanged`).
enum SummaryLabel {
    static let fill = "#eaeef2"

    static func label(head: String, _ summary: CollapsedForest.Summary) -> String {
        var lines = [head]
        let below = summary.total - summary.members.count
        if below > 0 { lines.append(DOTPreamble.small("\(NumberText.grouped(below)) more below")) }
        if summary.between > 0 { lines.append(DOTPreamble.small("\(NumberText.grouped(summary.between)) others between them")) }
        lines.append(DOTPreamble.small(tallies(summary)))
        return "<" + lines.joined(separator: "<BR/>") + ">"
    }

    static func tallies(_ summary: CollapsedForest.Summary) -> String {
        if summary.tallies.count == 1, let only = summary.tallies.first { return "all \(only.name)" }
        return summary.tallies.map { "\(NumberText.grouped($0.count)) \($0.name)" }.joined(separator: ", ")
    }

    /// Points, from the longest line, as `DOTWriter` estimates its nodes.
    static func estimatedSize(type: String, _ summary: CollapsedForest.Summary) -> (width: Double, height: Double) {
        let head = Double(Swift.min(type.count, DOTEscaping.maximumLabelCharacters) + 8) * 12
        let width = Swift.max(head, Double(tallies(summary).count + 4) * 10) * 0.62 + 2 * NodeDetail.sideMargin * 72
        let lines = 2 + (summary.between > 0 ? 1 : 0)
        return (width, 15 + Double(lines) * 12.5 + 2 * 0.06 * 72)
    }

    /// The summary's node statement, named `name` (an id made of fixed tokens); the outline turns the leak colour
    /// when the summary holds retained coordinators, which only `--depth` summarises.
    static func statement(
        name: String, head: String, _ summary: CollapsedForest.Summary, tooltip: [String], at position: (x: Double, y: Double)?,
        type: String
    ) -> String {
        let holdsLeaks = summary.tallies.contains { $0.name == Verdict.retained.rawValue }
        return "  \(name) [id=\"\(name)\", class=\"summary\(holdsLeaks ? " holds-retained" : "")\", style=\"rounded,filled\", "
            + "fillcolor=\"\(fill)\", color=\"\(holdsLeaks ? NodeLook.leakRed : NodeLook.edgeGrey)\", fontcolor=\"#1f2328\", "
            + "penwidth=\(holdsLeaks ? 3 : 1)\(DOTPreamble.pos(position, size: estimatedSize(type: type, summary))), "
            + "label=\(label(head: head, summary)), tooltip=\(DOTEscaping.tooltip(tooltip))];\n"
    }
}
