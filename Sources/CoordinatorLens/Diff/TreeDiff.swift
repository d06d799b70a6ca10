/// Two snapshots of the same flow from two runs (say main and a branch) merged into one tree: each coordinator matched
/// by its type path, marked with what changed, and the leaks compared by fingerprint.
///
/// Leaks are counted per fingerprint: B leaking `YellowCoordinator` twice where A leaked it once is one new leak and
/// one that is still leaking. Within a fingerprint, a leak matched to the same coordinator in A counts as still leaking
/// first, so the new and fixed markers land on the coordinators that actually changed.
public struct TreeDiff: Sendable {
    /// One coordinator of the merged tree: a node of A, of B, or one of each matched by type path.
    public struct Entry: Hashable, Sendable {
        /// The coordinator's Swift type name, the same in both runs when matched.
        public let type: String
        /// Its ordinal among the same-type siblings under its parent.
        public let ordinal: Int
        /// The entry it hangs under, or nil for a root.
        public let parent: Int?
        /// The entries hanging under it, in display order.
        public internal(set) var children: [Int] = []
        /// Roots are at 0.
        public let depth: Int
        /// Its node's position in `a.nodes`, when A has it.
        public let aPosition: Int?
        /// Its node's position in `b.nodes`, when B has it.
        public let bPosition: Int?
        /// What changed for it between A and B; when several apply, the one that matters most.
        public internal(set) var marker: DiffMarker = .unchanged
        /// Retained in B, one of the leaks B has more of than A.
        public internal(set) var isNewLeak = false
        /// Retained in A, one of the leaks A has more of than B.
        public internal(set) var isFixedLeak = false
        /// Retained in B, a leak A has too.
        public internal(set) var isStillLeaking = false
    }

    /// Counts for the summary line.
    public struct Summary: Hashable, Sendable, Codable {
        /// Coordinators only in B.
        public var added = 0
        /// Coordinators only in A.
        public var gone = 0
        /// Coordinators in both whose verdict or screen differs, new and fixed leaks aside: the `~` markers.
        public var changed = 0
        /// Coordinators in both with the same verdict and screen: the `=` markers.
        public var unchanged = 0
        /// Leaks in B beyond A's count of the same fingerprint.
        public var newLeaks = 0
        /// Leaks in A beyond B's count of the same fingerprint.
        public var fixedLeaks = 0
        /// Leaks B shares with A.
        public var stillLeaking = 0

        /// A summary with these counts, 0 where none is given.
        package init(
            added: Int = 0, gone: Int = 0, changed: Int = 0, unchanged: Int = 0,
            newLeaks: Int = 0, fixedLeaks: Int = 0, stillLeaking: Int = 0
        ) {
            self.added = added
            self.gone = gone
            self.changed = changed
            self.unchanged = unchanged
            self.newLeaks = newLeaks
            self.fixedLeaks = fixedLeaks
            self.stillLeaking = stillLeaking
        }
    }

    /// The baseline snapshot (run A).
    public let a: Snapshot
    /// The snapshot compared with the baseline (run B).
    public let b: Snapshot
    /// The merged tree in pre-order: each entry comes before its children, roots in display order.
    public let entries: [Entry]
    /// The entries that hang under nothing, in display order.
    public let roots: [Int]
    /// Fingerprints B leaks more often than A, with how many more.
    public let newLeaks: [LeakCount]
    /// Fingerprints A leaks more often than B, with how many more.
    public let fixedLeaks: [LeakCount]
    /// Fingerprints both leak, with how many of B's leaks A shares.
    public let stillLeaking: [LeakCount]
    /// The counts behind the summary line.
    public let summary: Summary

    /// Whether B has a leak A does not: what fails a CI run.
    public var hasNewLeaks: Bool { summary.newLeaks > 0 }

    /// Diffs A (the baseline) against B; linear in the two snapshots' sizes.
    public init(_ a: Snapshot, _ b: Snapshot) {
        self.a = a
        self.b = b
        let sideA = TypePathIndex(a)
        let sideB = TypePathIndex(b)
        let matching = NodeMatching(sideA, sideB)
        let leaks = LeakComparison(sideA, sideB, matching)
        let merged = Self.merge(sideA, sideB, matching, leaks)
        var summary = merged.summary
        summary.newLeaks = leaks.newLeaks.reduce(0) { $0 + $1.count }
        summary.fixedLeaks = leaks.fixedLeaks.reduce(0) { $0 + $1.count }
        summary.stillLeaking = leaks.stillLeaking.reduce(0) { $0 + $1.count }

        self.entries = merged.entries
        self.roots = merged.roots
        self.newLeaks = leaks.newLeaks
        self.fixedLeaks = leaks.fixedLeaks
        self.stillLeaking = leaks.stillLeaking
        self.summary = summary
    }

    /// The entry's node in A, if A has it.
    public func nodeA(_ entry: Entry) -> SnapshotNode? { entry.aPosition.map { a.nodes[$0] } }

    /// The entry's node in B, if B has it.
    public func nodeB(_ entry: Entry) -> SnapshotNode? { entry.bPosition.map { b.nodes[$0] } }

    /// The type path of the entry at `index`.
    public func path(of index: Int) -> TypePath {
        var steps: [TypePath.Step] = []
        var current: Int? = index
        while let at = current {
            steps.append(TypePath.Step(type: entries[at].type, ordinal: entries[at].ordinal))
            current = entries[at].parent
        }
        return TypePath(steps.reversed())
    }

    /// The merged tree, built depth first without recursion as real trees can be deep, each entry marked as it is made.
    private static func merge(
        _ sideA: TypePathIndex, _ sideB: TypePathIndex, _ matching: NodeMatching, _ leaks: LeakComparison
    ) -> (entries: [Entry], roots: [Int], summary: Summary) {
        struct Pending {
            var a: Int
            var b: Int
            var parent: Int
            var depth: Int
        }
        let nodesA = sideA.snapshot.nodes
        let nodesB = sideB.snapshot.nodes
        var entries: [Entry] = []
        entries.reserveCapacity(nodesA.count + nodesB.count - matching.matched)
        var roots: [Int] = []
        var summary = Summary()
        var stack: [Pending] = []
        var siblings: [(a: Int, b: Int)] = []

        matching.interleave(sideA.roots[...], sideB.roots[...], into: &siblings)
        for pair in siblings.reversed() { stack.append(Pending(a: pair.a, b: pair.b, parent: -1, depth: 0)) }
        while let item = stack.popLast() {
            let index = entries.count
            var entry = Entry(
                type: item.b >= 0 ? nodesB[item.b].type : nodesA[item.a].type,
                ordinal: item.b >= 0 ? sideB.ordinal[item.b] : sideA.ordinal[item.a],
                parent: item.parent >= 0 ? item.parent : nil, depth: item.depth,
                aPosition: item.a >= 0 ? item.a : nil, bPosition: item.b >= 0 ? item.b : nil
            )
            // Fields are read in place: copying whole nodes out of the arrays would cost more than the diff.
            if item.a >= 0 { entry.isFixedLeak = leaks.stateA[item.a] == .fixed }
            if item.b >= 0 {
                entry.isNewLeak = leaks.stateB[item.b] == .new
                entry.isStillLeaking = leaks.stateB[item.b] == .still
            }
            let changed =
                item.a >= 0 && item.b >= 0
                && (nodesA[item.a].verdict != nodesB[item.b].verdict || nodesA[item.a].screen != nodesB[item.b].screen)
            entry.marker =
                if entry.isNewLeak { .newLeak } else if entry.isFixedLeak { .fixedLeak } else if item.a < 0 { .added } else if item.b < 0 {
                    .gone
                } else if changed { .changed } else { .unchanged }
            if item.a < 0 { summary.added += 1 }
            if item.b < 0 { summary.gone += 1 }
            if entry.marker == .changed { summary.changed += 1 }
            if entry.marker == .unchanged { summary.unchanged += 1 }
            entries.append(entry)

            if item.parent >= 0 { entries[item.parent].children.append(index) } else { roots.append(index) }
            let childrenA = item.a >= 0 ? sideA.children(of: item.a) : []
            let childrenB = item.b >= 0 ? sideB.children(of: item.b) : []
            matching.interleave(childrenA, childrenB, into: &siblings)
            for pair in siblings.reversed() {
                stack.append(Pending(a: pair.a, b: pair.b, parent: index, depth: item.depth + 1))
            }
        }
        return (entries, roots, summary)
    }
}
