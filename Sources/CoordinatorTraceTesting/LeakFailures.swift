import CoordinatorLens

/// The lines a failing leak assertion reports, one per coordinator, in the words of `coordlens check`.
enum LeakFailures {
    static func retained(in snapshot: Snapshot) -> [String] {
        snapshot.retained.map(LeakReport.line(for:))
    }

    /// Retained coordinators, and those that have not deinited although nothing said they were done.
    static func notReleased(in snapshot: Snapshot, excluding reported: Set<CoordinatorID> = []) -> [String] {
        snapshot.nodes.compactMap { node in
            guard !reported.contains(node.id) else { return nil }
            switch node.verdict {
            case .retained: return LeakReport.line(for: node)
            case .alive, .pending: return TextSanitizer.visible("\(node.type)#\(node.id) not released: still alive\(addedAt(node))")
            case .released, .late: return nil
            }
        }
    }

    private static func addedAt(_ node: SnapshotNode) -> String {
        node.site.map { " (added at \($0.description))" } ?? ""
    }
}
