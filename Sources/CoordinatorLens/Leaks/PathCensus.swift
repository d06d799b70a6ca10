/// Which type paths (types from the root) a run exercised, and how many coordinators were in use on each at the end:
/// what tells a pile-up of screenless coordinators from a fixed build's few, and a flow a run never opened from a fixed
/// leak.
package struct PathCensus: Sendable, Equatable {
    /// A types-only path from the root, shortened past `DeepPath.maximumSteps` as leak fingerprints are.
    package struct Path: Hashable, Sendable, Comparable, CustomStringConvertible {
        /// The types from the root down; for a deep path the root and the last steps only.
        package var types: [String]
        /// Steps left out after the root; 0 when `types` is the whole path.
        package var omittedSteps: Int

        /// A path of root-first `types`, with `omittedSteps` left out after the root.
        package init(types: [String], omittedSteps: Int = 0) {
            self.types = types
            self.omittedSteps = omittedSteps
        }

        /// The path a leak's fingerprint names.
        package init(_ fingerprint: LeakFingerprint) {
            self.init(types: fingerprint.types, omittedSteps: fingerprint.omittedSteps)
        }

        /// The last type: the coordinators counted on it.
        package var type: String { types.last ?? "" }

        /// The path above the last type, `AppCoordinator/BrowserCoordinator`; empty for a root.
        package var parentPath: String {
            Path(types: Array(types.dropLast()), omittedSteps: omittedSteps).description
        }

        /// `AppCoordinator/BrowserCoordinator/TabPanelCoordinator`; deep: `AppCoordinator/… 9,990 more/…`.
        package var description: String {
            var shown = types
            if omittedSteps > 0, !shown.isEmpty { shown.insert(DeepPath.omission(omittedSteps), at: 1) }
            return shown.joined(separator: "/")
        }

        package static func < (lhs: Path, rhs: Path) -> Bool {
            if lhs.types != rhs.types { return lhs.types.lexicographicallyPrecedes(rhs.types) }
            return lhs.omittedSteps < rhs.omittedSteps
        }
    }

    /// Every path the run created a coordinator on, with how many coordinators on it were in use (judged alive and
    /// not merely kept for reuse) at the end; 0 for a path whose coordinators were all done or freed.
    package private(set) var alive: [Path: Int] = [:]

    /// An empty census, to merge runs into.
    package init() {}

    /// The census of one snapshot.
    package init(_ snapshot: Snapshot) {
        self = Self.withFingerprints(of: snapshot).census
    }

    /// The census of one snapshot and the fingerprints of its retained coordinators, from one index of its type
    /// paths: a summary needs both, and building the index twice was a tenth of `baseline`'s time.
    package static func withFingerprints(of snapshot: Snapshot) -> (census: PathCensus, fingerprints: [(position: Int, fingerprint: LeakFingerprint)]) {
        var census = PathCensus()
        guard !snapshot.nodes.isEmpty else { return (census, []) }
        let index = TypePathIndex(snapshot)
        var interner = TypePathInterner()
        var memo = [Int](repeating: -1, count: snapshot.nodes.count)
        var countByNumber: [Int: Int] = [:]
        var fingerprints: [(position: Int, fingerprint: LeakFingerprint)] = []
        var byPath: [Int: (types: [String], omitted: Int)] = [:]
        for position in snapshot.nodes.indices {
            let number = interner.id(of: position, in: index, memo: &memo)
            let verdict = snapshot.nodes[position].verdict
            let inUse = verdict == .alive && snapshot.nodes[position].kept == nil
            countByNumber[number, default: 0] += inUse ? 1 : 0
            guard verdict == .retained else { continue }
            let path = byPath[number] ?? interner.types(of: number)
            byPath[number] = path
            fingerprints.append(
                (position, LeakFingerprint(types: path.types, omittedSteps: path.omitted, reasonKind: snapshot.nodes[position].leakReasonKind)))
        }
        census.alive.reserveCapacity(countByNumber.count)
        for (number, count) in countByNumber {
            let (types, omitted) = byPath[number] ?? interner.types(of: number)
            census.alive[Path(types: types, omittedSteps: omitted), default: 0] += count
        }
        return (census, fingerprints)
    }

    /// A census of `alive` counts per path, as a baseline file lists them.
    package init(alive: [Path: Int]) {
        self.alive = alive
    }

    /// Whether the run created a coordinator on `path`.
    package func exercised(_ path: Path) -> Bool { alive[path] != nil }

    /// Adds another run: paths exercised by either, each with the larger count in use.
    package mutating func merge(_ other: PathCensus) {
        // The first run merged into an empty census (every one-recording command) is taken whole, not re-hashed.
        guard !alive.isEmpty else {
            alive = other.alive
            return
        }
        alive.merge(other.alive) { Swift.max($0, $1) }
    }

    /// The paths in order, with their counts.
    package var entries: [(path: Path, alive: Int)] {
        // Positions are sorted, not the entries: moving a path moves its array of names, retained and released.
        let unsorted = Array(alive)
        return unsorted.indices.sorted { unsorted[$0].key < unsorted[$1].key }.map { (unsorted[$0].key, unsorted[$0].value) }
    }
}

/// More coordinators of one type in use on one path than a reference run had: the shape of a coordinator created on
/// every visit (a tab panel, a page) and never let go, which has no screen of its own to mark it done.
package struct PileUp: Hashable, Sendable {
    /// The path; its last type is the one that piled up.
    package var path: PathCensus.Path
    /// How many were in use at the end of the checked run (B).
    package var count: Int
    /// How many the reference (the baseline, or A) had.
    package var allowed: Int

    /// The session's index, for a check of several.
    package var session: Int = 0

    /// `9 TabPanelCoordinator in use under AppCoordinator/BrowserCoordinator at the end of the run, 2 in the baseline`.
    package func text(reference: String) -> String {
        let parent = path.parentPath.isEmpty ? "as roots" : "under \(path.parentPath)"
        return "\(count) \(path.type) in use \(parent) at the end of the run, \(allowed) in \(reference)"
    }

    /// Every path both censuses exercised on which `checked` has more in use than `reference`.
    package static func find(in checked: PathCensus, against reference: PathCensus, session: Int = 0) -> [PileUp] {
        checked.entries.compactMap { entry in
            guard let allowed = reference.alive[entry.path], entry.alive > allowed else { return nil }
            return PileUp(path: entry.path, count: entry.alive, allowed: allowed, session: session)
        }
    }
}
