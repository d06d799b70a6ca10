/// The JSON form of a diff, for tools: both sides, the summary, the changed leak fingerprints and every coordinator of
/// the merged tree in pre-order (`depth` rebuilds the tree), each with its marker and its node from either run.
///
/// Optional facts are written as `null` rather than left out, so every object of a kind has the same keys.
package struct TreeDiffJSON: Encodable, Sendable {
    /// The diff written out.
    package let diff: TreeDiff
    /// Names input A in `a.source`, for example its file path.
    package let sourceA: String
    /// Names input B in `b.source`, for example its file path.
    package let sourceB: String

    /// Wraps `diff` for encoding; `sourceA` and `sourceB` name the two inputs.
    package init(_ diff: TreeDiff, sourceA: String = "A", sourceB: String = "B") {
        self.diff = diff
        self.sourceA = sourceA
        self.sourceB = sourceB
    }

    private enum Keys: String, CodingKey {
        case a, b, summary, hasNewLeaks, leaks, coordinators
        case source, app, run, evaluatedAt, grace, retained
        case new, fixed, still
        case fingerprint, types, omittedSteps, reasonKind, count
        case path, type, ordinal, depth, marker, change, newLeak, fixedLeak, stillLeaking
        case id, verdict, screen
    }

    package func encode(to encoder: any Encoder) throws {
        var root = encoder.container(keyedBy: Keys.self)
        try encodeSide(diff.a, source: sourceA, into: root.nestedContainer(keyedBy: Keys.self, forKey: .a))
        try encodeSide(diff.b, source: sourceB, into: root.nestedContainer(keyedBy: Keys.self, forKey: .b))
        try root.encode(diff.summary, forKey: .summary)
        try root.encode(diff.hasNewLeaks, forKey: .hasNewLeaks)

        var leaks = root.nestedContainer(keyedBy: Keys.self, forKey: .leaks)
        for (key, counts) in [(Keys.new, diff.newLeaks), (.fixed, diff.fixedLeaks), (.still, diff.stillLeaking)] {
            var list = leaks.nestedUnkeyedContainer(forKey: key)
            for leak in counts {
                var item = list.nestedContainer(keyedBy: Keys.self)
                try item.encode(leak.fingerprint.description, forKey: .fingerprint)
                try item.encode(leak.fingerprint.types, forKey: .types)
                try item.encode(leak.fingerprint.omittedSteps, forKey: .omittedSteps)
                try item.encode(leak.fingerprint.reasonKind, forKey: .reasonKind)
                try item.encode(leak.count, forKey: .count)
            }
        }

        var list = root.nestedUnkeyedContainer(forKey: .coordinators)
        // Each entry's root, from its parent's, which pre-order has already seen: deep paths print their root.
        var rootOf: [Int] = []
        rootOf.reserveCapacity(diff.entries.count)
        for (index, entry) in diff.entries.enumerated() {
            rootOf.append(entry.parent.map { rootOf[$0] } ?? index)
            var item = list.nestedContainer(keyedBy: Keys.self)
            try item.encode(path(of: index, root: rootOf[index]), forKey: .path)
            try item.encode(entry.type, forKey: .type)
            try item.encode(entry.ordinal, forKey: .ordinal)
            try item.encode(entry.depth, forKey: .depth)
            try item.encode(entry.marker.symbol, forKey: .marker)
            try item.encode(entry.marker.rawValue, forKey: .change)
            try item.encode(entry.isNewLeak, forKey: .newLeak)
            try item.encode(entry.isFixedLeak, forKey: .fixedLeak)
            try item.encode(entry.isStillLeaking, forKey: .stillLeaking)
            try encodeNode(diff.nodeA(entry), into: &item, forKey: .a)
            try encodeNode(diff.nodeB(entry), into: &item, forKey: .b)
        }
    }

    /// The entry's type path as `TypePath` prints it, built from at most `DeepPath.maximumSteps` steps up, so writing
    /// every entry's path stays linear in the tree's size however deep it is.
    private func path(of index: Int, root: Int) -> String {
        let entries = diff.entries
        let count = entries[index].depth + 1
        let kept = count <= DeepPath.maximumSteps ? count : DeepPath.keptSteps
        var parts: [String] = []
        parts.reserveCapacity(kept + 2)
        var current = index
        for step in 0..<kept {
            let entry = entries[current]
            parts.append(step == 0 || entry.ordinal > 0 ? "\(entry.type)[\(entry.ordinal)]" : entry.type)
            current = entry.parent ?? current
        }
        if kept < count {
            parts.append(DeepPath.omission(count - kept - 1))
            let first = entries[root]
            parts.append(first.ordinal > 0 ? "\(first.type)[\(first.ordinal)]" : first.type)
        }
        return parts.reversed().joined(separator: "/")
    }

    private func encodeSide(_ snapshot: Snapshot, source: String, into side: KeyedEncodingContainer<Keys>) throws {
        var side = side
        try side.encode(source, forKey: .source)
        try side.encode(snapshot.app, forKey: .app)
        try side.encode(snapshot.run, forKey: .run)
        try side.encode(snapshot.evaluatedAt, forKey: .evaluatedAt)
        try side.encode(snapshot.grace, forKey: .grace)
        try side.encode(snapshot.nodes.count, forKey: .coordinators)
        try side.encode(snapshot.counts[.retained, default: 0], forKey: .retained)
    }

    private func encodeNode(_ node: SnapshotNode?, into item: inout KeyedEncodingContainer<Keys>, forKey key: Keys) throws {
        guard let node else {
            try item.encodeNil(forKey: key)
            return
        }
        var side = item.nestedContainer(keyedBy: Keys.self, forKey: key)
        try side.encode(node.id, forKey: .id)
        try side.encode(node.verdict.rawValue, forKey: .verdict)
        try side.encode(node.verdict == .retained ? node.leakReasonKind : nil, forKey: .reasonKind)
        try side.encode(node.screen, forKey: .screen)
    }
}
