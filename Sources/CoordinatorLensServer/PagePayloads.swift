import CoordinatorLens

/// One session as the sessions list shows it; the feed pushes it whenever the session changes.
struct SessionSummary: Codable, Equatable, Sendable {
    var run: String
    var app: String
    /// `live`, `disconnected`, `ended` or `recorded` (read from a file by `coordlens view`).
    var state: String
    /// Grows with every change; the page redraws a session it shows when this or the counts move.
    var version: Int
    var events: Int
    var coordinators: Int
    /// Coordinators per verdict; verdicts with none are left out.
    var counts: [String: Int]
    var warnings: Int
    var lastSeq: Int?

    init(_ live: LiveSnapshot) {
        let snapshot = live.snapshot
        run = snapshot.run
        app = snapshot.app
        state = live.recorded ? "recorded" : snapshot.ended ? "ended" : live.connected ? "live" : "disconnected"
        version = live.version
        events = live.events
        coordinators = snapshot.nodes.count
        counts = Dictionary(uniqueKeysWithValues: snapshot.counts.map { ($0.key.rawValue, $0.value) })
        warnings = snapshot.warnings.count
        lastSeq = snapshot.lastSeq
    }
}

/// Everything the page shows of one session at one point besides the picture: its coordinators with their facts,
/// the leak list, the marks for the time slider and the warnings.
struct TreeModel: Encodable {
    struct Leaks: Encodable {
        /// The fingerprint as `diff` prints it: the type path and the reason kind.
        var fingerprint: String
        var type: String
        var reasonKind: String
        var ids: [CoordinatorID]
    }

    var summary: SessionSummary
    /// The event the view stops after; nil for the present.
    var seq: Int?
    /// The slider's range: the first and last event of the session that time travel can reach.
    var firstSeq: Int?
    var lastSeq: Int?
    /// False when the session outgrew the kept history, so the slider reaches only its first part.
    var historyComplete: Bool
    var evaluatedAt: Double
    var grace: Double
    var ended: Bool
    var roots: [CoordinatorID]
    var nodes: [SnapshotNode]
    var leaks: [Leaks]
    /// Pending coordinators of a session that has ended or was read from a file: `check` fails on them too.
    var undecided: Int
    var marks: [Mark]
    var warnings: [Diagnostic]
}

/// One of a coordinator's own events, as the details panel lists them.
struct CoordinatorEvent: Encodable {
    var seq: Int
    var time: Double
    var kind: String
    /// The other coordinator the event names: the parent of an add or remove.
    var parent: CoordinatorID?
    var screen: String?
    var site: CallSite?
}
