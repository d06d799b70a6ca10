import CoordinatorLens

/// What a failing leak assertion reports, in the words of `coordlens check`: one failure per cause.
enum LeakFailures {
    /// Who the retainer search found holds a retained coordinator: its description, and the path as the core reads it.
    typealias Holder = (text: String, held: HeldBy)

    /// One failure per cause, with who holds each coordinator when the retainer search found that (`heldBy`, by id): a
    /// coordinator alone is its line; the coordinators one cause keeps (seven kept by one cycle) are one failure that
    /// names the cause first, then a line for each.
    static func retained(in snapshot: Snapshot, heldBy: [CoordinatorID: Holder] = [:]) -> [String] {
        let texts = heldBy.mapValues(\.text)
        return snapshot.causeGroups(heldBy: heldBy.isEmpty ? nil : snapshot.heldBy.merging(heldBy.mapValues(\.held)) { _, new in new })
            .map { group in
                let lines = group.allIDs.compactMap { snapshot.node($0).map { line(for: $0, heldBy: texts) } }
                guard lines.count > 1 else { return lines.first ?? "" }
                let head = TextSanitizer.visible("cause: \(group.cause) \(group.keepsText(in: snapshot))")
                return ([head] + lines.map { "  " + $0 }).joined(separator: "\n")
            }
    }

    /// Retained coordinators, and those that have not deinited although nothing said they were done.
    static func notReleased(in snapshot: Snapshot, excluding reported: Set<CoordinatorID> = []) -> [String] {
        snapshot.nodes.compactMap { node in
            guard !reported.contains(node.id) else { return nil }
            switch node.verdict {
            case .retained: return line(for: node)
            case .alive, .pending: return TextSanitizer.visible("\(node.type)#\(node.id) not released: still alive\(addedAt(node))")
            case .released, .late: return nil
            }
        }
    }

    /// `coordlens check`'s line, then the leak trace, as LeakCanary's assertion message carries its own.
    private static func line(for node: SnapshotNode, heldBy: [CoordinatorID: String] = [:]) -> String {
        LeakReport.line(for: node) + (heldBy[node.id].map { TextSanitizer.visible("; held by: \($0)") } ?? "")
    }

    private static func addedAt(_ node: SnapshotNode) -> String {
        node.site.map { " (added at \($0.description))" } ?? ""
    }
}
