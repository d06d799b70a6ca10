import CoordinatorLens

/// The lines a failing leak assertion reports, one per coordinator, in the words of `coordlens check`.
enum LeakFailures {
    /// One line per retained coordinator, with who holds it when the retainer search found that (`heldBy`, by id).
    static func retained(in snapshot: Snapshot, heldBy: [CoordinatorID: String] = [:]) -> [String] {
        snapshot.retained.map { line(for: $0, heldBy: heldBy) }
    }

    /// Retained coordinators, and those that have not deinited although nothing said they were done.
    static func notReleased(in snapshot: Snapshot, excluding reported: Set<CoordinatorID> = [], heldBy: [CoordinatorID: String] = [:]) -> [String] {
        snapshot.nodes.compactMap { node in
            guard !reported.contains(node.id) else { return nil }
            switch node.verdict {
            case .retained: return line(for: node, heldBy: heldBy)
            case .alive, .pending: return TextSanitizer.visible("\(node.type)#\(node.id) not released: still alive\(addedAt(node))")
            case .released, .late: return nil
            }
        }
    }

    /// `coordlens check`'s line, then the leak trace, as LeakCanary's assertion message carries its own.
    private static func line(for node: SnapshotNode, heldBy: [CoordinatorID: String]) -> String {
        LeakReport.line(for: node) + (heldBy[node.id].map { TextSanitizer.visible("; held by: \($0)") } ?? "")
    }

    private static func addedAt(_ node: SnapshotNode) -> String {
        node.site.map { " (added at \($0.description))" } ?? ""
    }
}
