import CoordinatorLens
import CoordinatorLensRendering

/// Two sessions compared in the page (`/api/compare`): the picture `coordlens diff --format svg` draws for them (the
/// same element ids) and the new, fixed and still-leaking coordinators, each naming the session it belongs to so the
/// page can select it there.
package struct RunComparison: Encodable, Sendable {
    /// One side of the comparison.
    package struct Side: Encodable, Sendable {
        /// The app's name.
        package var app: String
        /// The session's run id.
        package var run: String
    }

    /// A leaking coordinator in the lists.
    package struct Leak: Encodable, Sendable {
        /// The session it is a coordinator of: B for new and still-leaking ones, A for fixed ones.
        package var run: String
        /// Its id in that session.
        package var id: CoordinatorID
        /// Its Swift type name.
        package var type: String
        /// Its type path with ordinals, as `diff` prints it.
        package var path: String
        /// The element id of its node in the picture (`n12`); a collapsed picture may draw it inside a summary.
        package var node: String
    }

    /// A path on which B has more coordinators in use than A had: screenless coordinators created on every visit.
    package struct PiledUp: Encodable, Sendable {
        /// The type that piled up.
        package var type: String
        /// The types above it, `AppCoordinator/BrowserCoordinator`; empty for roots.
        package var parentPath: String
        /// How many were in use at the end of A.
        package var a: Int
        /// How many were in use at the end of B.
        package var b: Int
    }

    /// The baseline session (A).
    package var a: Side
    /// The session compared with it (B).
    package var b: Side
    /// The counts behind the summary line.
    package var summary: TreeDiff.Summary
    /// Leaks of B beyond A's count of the same fingerprint.
    package var newLeaks: [Leak]
    /// Leaks of A beyond B's count of the same fingerprint.
    package var fixedLeaks: [Leak]
    /// Leaks B shares with A.
    package var stillLeaking: [Leak]
    /// Paths with more in use in B than in A, as `coordlens diff` lists them.
    package var pileUps: [PiledUp]
    /// The picture as SVG, drawn as `DiffRenderer` draws it by default.
    package var svg: String

    /// Compares `diff`'s two snapshots and draws the picture (through `GraphvizRenderer.shared`, like every picture).
    package init(_ diff: TreeDiff) throws(RenderError) {
        a = Side(app: diff.a.app, run: diff.a.run)
        b = Side(app: diff.b.app, run: diff.b.run)
        summary = diff.summary
        func leaks(_ include: (TreeDiff.Entry) -> Bool, in snapshot: Snapshot, node: (TreeDiff.Entry) -> SnapshotNode?) -> [Leak] {
            diff.entries.indices.compactMap { index in
                let entry = diff.entries[index]
                guard include(entry), let found = node(entry) else { return nil }
                return Leak(run: snapshot.run, id: found.id, type: found.type, path: "\(diff.path(of: index))", node: "n\(index)")
            }
        }
        newLeaks = leaks(\.isNewLeak, in: diff.b, node: diff.nodeB)
        fixedLeaks = leaks(\.isFixedLeak, in: diff.a, node: diff.nodeA)
        stillLeaking = leaks(\.isStillLeaking, in: diff.b, node: diff.nodeB)
        pileUps = PileUp.find(in: PathCensus(diff.b), against: PathCensus(diff.a)).map {
            PiledUp(type: $0.path.type, parentPath: $0.path.parentPath, a: $0.allowed, b: $0.count)
        }
        // The run ids name the inputs, as file names do for `coordlens diff`.
        let drawn = try DiffRenderer.render(diff, format: .svg, sourceA: diff.a.run, sourceB: diff.b.run)
        svg = String(decoding: drawn, as: UTF8.self)
    }
}
