import CoordinatorLens

/// How a summary node reads and looks, in trees and diffs alike: its head (`FeedItemCoordinator ×120`), how many
/// more hang below, and its tallies (`all alive`, `30 alive, 2 released`, `all unchanged`).
enum SummaryLabel {
    static let fill = "#eaeef2"

    static func label(head: String, _ summary: CollapsedForest.Summary) -> String {
        var lines = [head]
        let below = summary.total - summary.members.count
        if below > 0 { lines.append(small("\(NumberText.grouped(below)) more below")) }
        lines.append(small(tallies(summary)))
        return "<" + lines.joined(separator: "<BR/>") + ">"
    }

    static func tallies(_ summary: CollapsedForest.Summary) -> String {
        if summary.tallies.count == 1, let only = summary.tallies.first { return "all \(only.name)" }
        return summary.tallies.map { "\(NumberText.grouped($0.count)) \($0.name)" }.joined(separator: ", ")
    }

    /// Points, from the longest line, as `DOTWriter` estimates its nodes.
    static func estimatedSize(type: String, _ summary: CollapsedForest.Summary) -> (width: Double, height: Double) {
        let head = Double(Swift.min(type.count, DOTEscaping.maximumLabelCharacters) + 8) * 12
        let width = Swift.max(head, Double(tallies(summary).count + 4) * 10) * 0.62 + 2 * 0.15 * 72
        return (width, 15 + 2 * 12.5 + 2 * 0.06 * 72)
    }

    private static func small(_ html: String) -> String {
        "<FONT POINT-SIZE=\"10\">\(html)</FONT>"
    }
}
