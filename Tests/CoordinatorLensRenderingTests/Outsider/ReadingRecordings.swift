import CoordinatorLens
import CoordinatorLensRendering

/// What someone reading recordings from their own Swift code writes, on the public surface alone: `OutsiderTests`
/// runs it on the committed samples, and compiles this file with `swiftc` against the built modules without the
/// package's name, so a `package` declaration used here fails that test.
enum ReadingRecordings {
    /// A recording that holds nothing to judge, with the line that says why.
    struct Unusable: Error {
        var diagnostic: Diagnostic
    }

    /// One run judged at the end of its recording.
    struct JudgedRun {
        /// The app's name from its session line.
        var app: String
        /// Each retained coordinator as `Type#id: reason`, in the order the snapshot lists them.
        var leaks: [String]
        /// The retention reasons' kinds, in the same order.
        var kinds: [RetentionKind]
        /// The run's picture as SVG.
        var svg: [UInt8]
    }

    /// Decodes a recording, judges each run at its end, reads its leaks and draws it; `fails` is what CI would say.
    static func judge(_ bytes: [UInt8], source: String) throws -> (runs: [JudgedRun], fails: Bool) {
        let recording = Recording(bytes: bytes, keeping: .treeAtEnd)
        if let problem = recording.unusable { throw Unusable(diagnostic: problem) }
        let checks = try recording.sessions.map { log in
            SessionCheck(source: source, snapshot: try log.snapshot(grace: VerdictRules.defaultGrace), atEnd: true)
        }
        let result = CheckResult(grace: VerdictRules.defaultGrace, sessions: checks)
        let runs = try result.sessions.map { check in
            let snapshot = check.snapshot
            return JudgedRun(
                app: snapshot.app,
                leaks: snapshot.retained.map { "\($0.type)#\($0.id): \($0.reason ?? "")" },
                kinds: snapshot.retained.compactMap(\.reasonKind),
                svg: try SnapshotRenderer.render(snapshot, format: .svg, options: RenderOptions(showReleased: true))
            )
        }
        return (runs, result.fails(allowingUndecided: false))
    }

    /// Diffs the first run of two recordings (A before a change, B after it): the leaks B fixed and the ones it
    /// brought, by fingerprint, and the diff's picture as SVG.
    static func compare(before: [UInt8], after: [UInt8]) throws -> (fixed: [String], new: [String], svg: [UInt8]) {
        let runs = try [before, after].map { bytes in
            let recording = Recording(bytes: bytes)
            if let problem = recording.unusable { throw Unusable(diagnostic: problem) }
            // A recording with something to judge has a session.
            return try recording.sessions[0].snapshot(until: .end)
        }
        let diff = TreeDiff(runs[0], runs[1])
        let svg = try DiffRenderer.render(diff, format: .svg, sourceA: "before", sourceB: "after")
        return (diff.fixedLeaks.map(\.fingerprint.description), diff.newLeaks.map(\.fingerprint.description), svg)
    }
}
