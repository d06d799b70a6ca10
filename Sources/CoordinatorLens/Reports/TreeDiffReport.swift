/// The human report of a diff, what `coordlens diff` prints: the merged tree with one marker per coordinator, the leak
/// fingerprints that changed, and a summary line last, where CI logs show it.
///
/// User text (types, screens, app names, run ids, sources) goes through `TextSanitizer.visible`, so none of it can
/// start a line of its own or reach the terminal as an escape sequence.
package enum TreeDiffReport {
    /// The whole report; `sourceA` and `sourceB` name the inputs (file paths, for example).
    package static func text(for diff: TreeDiff, sourceA: String = "A", sourceB: String = "B") -> String {
        var lines = [
            "A  " + side(diff.a, source: sourceA),
            "B  " + side(diff.b, source: sourceB),
            "",
        ]
        lines += tree(diff)
        for (title, symbol, counts) in [
            ("new leaks", DiffMarker.newLeak.symbol, diff.newLeaks),
            ("fixed leaks", DiffMarker.fixedLeak.symbol, diff.fixedLeaks),
            ("still leaking", "·", diff.stillLeaking),
        ] where !counts.isEmpty {
            lines.append("")
            lines.append("\(title):")
            for leak in counts {
                lines.append("  \(symbol) \(TextSanitizer.visible(leak.fingerprint.description))" + (leak.count > 1 ? " ×\(leak.count)" : ""))
            }
        }
        lines.append("")
        lines.append(summaryLine(for: diff))
        return lines.joined(separator: "\n")
    }

    /// `+3 -1, new leaks 2 (YellowCoordinator ×2), fixed 1 (CartCoordinator)`; `~n` and `still leaking n` only when
    /// there are some.
    package static func summaryLine(for diff: TreeDiff) -> String {
        let summary = diff.summary
        var line = "+\(summary.added) -\(summary.gone)"
        if summary.changed > 0 { line += " ~\(summary.changed)" }
        line += ", new leaks \(summary.newLeaks)" + byType(diff.newLeaks)
        line += ", fixed \(summary.fixedLeaks)" + byType(diff.fixedLeaks)
        if summary.stillLeaking > 0 { line += ", still leaking \(summary.stillLeaking)" + byType(diff.stillLeaking) }
        return line
    }

    /// The merged tree, one line per coordinator: marker, indented name, then what it is or how it changed.
    package static func tree(_ diff: TreeDiff) -> [String] {
        let twinned = hasSameTypeSibling(diff)
        let names = diff.entries.indices.map { index in
            let entry = diff.entries[index]
            let type = TextSanitizer.visible(entry.type)
            let name = twinned[index] ? "\(type)[\(entry.ordinal)]" : type
            // Past a depth no real app reaches, the depth is printed instead, so output stays linear in the tree's size.
            guard entry.depth > maximumIndent else { return String(repeating: "  ", count: entry.depth) + name }
            return String(repeating: "  ", count: maximumIndent) + "(depth \(entry.depth)) " + name
        }
        // Aligning a 100,000-line tree to its deepest line would push most details far off screen.
        let column = Swift.min(names.reduce(0) { Swift.max($0, $1.unicodeScalars.count) }, 56) + 2
        return diff.entries.indices.map { index in
            let entry = diff.entries[index]
            let padding = String(repeating: " ", count: Swift.max(column - names[index].unicodeScalars.count, 1))
            return "\(entry.marker.symbol) \(names[index])\(padding)\(detail(entry, in: diff))"
        }
    }

    private static let maximumIndent = 40

    /// For each entry, whether a sibling in either run has its type: then its ordinal is worth printing.
    package static func hasSameTypeSibling(_ diff: TreeDiff) -> [Bool] {
        struct SiblingType: Hashable {
            var parent: Int
            var type: String
        }
        var counts: [SiblingType: Int] = [:]
        for entry in diff.entries { counts[SiblingType(parent: entry.parent ?? -1, type: entry.type), default: 0] += 1 }
        return diff.entries.map { counts[SiblingType(parent: $0.parent ?? -1, type: $0.type), default: 0] > 1 }
    }

    /// `alive`, `retained (still-child) → released`, `released, only in A; screen Cart → Checkout`.
    package static func detail(_ entry: TreeDiff.Entry, in diff: TreeDiff) -> String {
        let nodeA = diff.nodeA(entry)
        let nodeB = diff.nodeB(entry)
        var text: String
        switch (nodeA, nodeB) {
        case (let nodeA?, let nodeB?):
            let before = verdict(nodeA)
            let after = verdict(nodeB)
            text = before == after ? after : "\(before) → \(after)"
            if nodeA.screen != nodeB.screen {
                text += "; screen \(nodeA.screen.map(TextSanitizer.visible) ?? "none") → \(nodeB.screen.map(TextSanitizer.visible) ?? "none")"
            }
        case (let nodeA?, nil):
            text = verdict(nodeA)
            if entry.marker != .gone { text += ", only in A" }
        case (nil, let nodeB?):
            text = verdict(nodeB)
            if entry.marker != .added { text += ", only in B" }
        case (nil, nil):
            text = ""
        }
        if entry.isStillLeaking { text += ", still leaking" }
        return text
    }

    private static func verdict(_ node: SnapshotNode) -> String {
        node.verdict == .retained ? "retained (\(node.leakReasonKind))" : node.verdict.rawValue
    }

    private static func side(_ snapshot: Snapshot, source: String) -> String {
        var text = "\(TextSanitizer.visible(source)) · \(TextSanitizer.visible(snapshot.app)) run \(TextSanitizer.visible(snapshot.run))"
        text += " · evaluated at \(Seconds(snapshot.evaluatedAt))"
        text += " · \(snapshot.nodes.count) coordinator\(snapshot.nodes.count == 1 ? "" : "s")"
        text += ", \(snapshot.counts[.retained, default: 0]) retained"
        return text
    }

    /// ` (YellowCoordinator ×2, CartCoordinator)`: counts per retained type, most first; empty when there are none.
    static func byType(_ leaks: [LeakCount]) -> String {
        var counts: [String: Int] = [:]
        for leak in leaks { counts[leak.fingerprint.type, default: 0] += leak.count }
        guard !counts.isEmpty else { return "" }
        let ordered = counts.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
        let named = ordered.map { (type: TextSanitizer.visible($0.key), count: $0.value) }
        return " (" + named.map { $0.count > 1 ? "\($0.type) ×\($0.count)" : $0.type }.joined(separator: ", ") + ")"
    }
}
