/// The human report of a snapshot's leaks, shared by `coordlens check` and test assertions.
public enum LeakReport {
    /// One line per retained coordinator: type, id, reason, and where it was added.
    public static func line(for node: SnapshotNode) -> String {
        let site = node.site.map { " (added at \($0.description))" } ?? ""
        return "\(node.type)#\(node.id) retained: \(node.reason ?? "not released")\(site)"
    }

    /// The path from the root to the node, as `App#1 › Home#2 › Yellow#5`.
    public static func path(to node: SnapshotNode, in snapshot: Snapshot) -> String {
        snapshot.path(to: node.id).map { "\($0.type)#\($0.id)" }.joined(separator: " › ")
    }

    /// Counts in verdict order, for example `3 alive, 2 retained, 4 released`.
    public static func counts(_ snapshot: Snapshot) -> String {
        let counts = snapshot.counts
        let parts = Verdict.allCases.compactMap { verdict in counts[verdict].map { "\($0) \(verdict.rawValue)" } }
        return parts.isEmpty ? "no coordinators" : parts.joined(separator: ", ")
    }

    /// The full text block for one session; `source` names the input for warnings (a file path, or empty).
    public static func text(for snapshot: Snapshot, source: String = "") -> String {
        var lines = ["\(snapshot.app) run \(snapshot.run) (evaluated at \(Seconds(snapshot.evaluatedAt)), grace \(Seconds(snapshot.grace)))"]
        for node in snapshot.retained {
            lines.append("  RETAINED \(node.type)#\(node.id): \(node.reason ?? "not released")")
            if let site = node.site { lines.append("    added at \(site.description)") }
            lines.append("    path: \(path(to: node, in: snapshot))")
        }
        for node in snapshot.nodes where node.verdict == .late {
            lines.append("  late \(node.type)#\(node.id): \(node.reason ?? "")")
        }
        if !snapshot.warnings.isEmpty {
            lines.append("  warnings:")
            let prefix = source.isEmpty ? "" : "\(source):"
            for warning in snapshot.warnings {
                lines.append(warning.line > 0 ? "    \(prefix)\(warning.line): \(warning.message)" : "    \(warning.message)")
            }
        }
        lines.append("  \(counts(snapshot))")
        return lines.joined(separator: "\n")
    }
}
