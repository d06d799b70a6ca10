import CoordinatorLens

/// One session as the sessions list shows it; the live feed pushes it whenever the session changes.
public struct SessionSummary: Codable, Equatable, Sendable {
    /// The run id.
    public var run: String
    /// The app's name.
    public var app: String
    /// `live`, `disconnected`, `ended` or `recorded` (read from a file).
    public var state: String
    /// Grows with every change; the page redraws a session it shows when this or the counts move.
    public var version: Int
    /// Events applied so far.
    public var events: Int
    /// Coordinators ever seen.
    public var coordinators: Int
    /// Coordinators per verdict; verdicts with none are left out.
    public var counts: [String: Int]
    /// Warnings kept for the session.
    public var warnings: Int
    /// The highest seq applied.
    public var lastSeq: Int?

    /// The summary of `snapshot` in `state`, after `events` events, at change number `version`.
    public init(_ snapshot: Snapshot, state: String, version: Int, events: Int) {
        run = snapshot.run
        app = snapshot.app
        self.state = state
        self.version = version
        self.events = events
        coordinators = snapshot.nodes.count
        counts = Dictionary(uniqueKeysWithValues: snapshot.counts.map { ($0.key.rawValue, $0.value) })
        warnings = snapshot.warnings.count
        lastSeq = snapshot.lastSeq
    }
}

/// Everything the page shows of one session at one point besides the picture: its coordinators with their facts,
/// the leak list, the marks for the time slider and the warnings.
public struct TreeModel: Encodable, Sendable {
    /// Retained coordinators sharing a fingerprint.
    public struct Leaks: Encodable, Sendable {
        /// The fingerprint as `diff` prints it: the type path and the reason kind.
        public var fingerprint: String
        public var type: String
        public var reasonKind: String
        public var ids: [CoordinatorID]
        /// With `view --baseline`/`--history`: `known` or `new`, and the note the page shows beside it.
        public var standing: String?
        public var note: String?
    }

    public var summary: SessionSummary
    /// The event the view stops after; nil for the present.
    public var seq: Int?
    /// The slider's range: the first and last event of the session that time travel can reach.
    public var firstSeq: Int?
    public var lastSeq: Int?
    /// False when the session outgrew the kept history, so the slider reaches only its first part.
    public var historyComplete: Bool
    public var evaluatedAt: Double
    public var grace: Double
    public var ended: Bool
    public var roots: [CoordinatorID]
    public var nodes: [SnapshotNode]
    public var leaks: [Leaks]
    /// Pending coordinators of a session seen to its end (ended, or read from a file): `check` fails on them too.
    public var undecided: Int
    public var marks: [Mark]
    public var warnings: [Diagnostic]
    /// The stored runs and each fingerprint's count in them, for the page's chart; nil without `--history`.
    public var leakHistory: LeakHistoryChart?

    /// What the chart of a fingerprint's count per stored run draws.
    public struct LeakHistoryChart: Encodable, Sendable {
        public var runs: [LeakContext.Run]
        public var counts: [String: [Int]]
    }

    /// The model of `snapshot`; `history` is what the slider can reach, `atEnd` says the snapshot is the end of
    /// everything the session will send, where pending means undecided.
    public init(
        _ snapshot: Snapshot, summary: SessionSummary, seq: Int?, history: SessionLog?, historyComplete: Bool, atEnd: Bool,
        context: LeakContext? = nil
    ) {
        self.summary = summary
        self.seq = seq
        // Scanned from either end, as a session's history can hold a million lines and this runs on every update.
        func recordSeq(_ entry: SessionLog.Entry) -> Int? {
            if case .record(let record) = entry { record.seq } else { nil }
        }
        let entries = history?.entries ?? []
        firstSeq = entries.lazy.compactMap(recordSeq).first
        lastSeq = historyComplete ? summary.lastSeq : entries.reversed().lazy.compactMap(recordSeq).first
        self.historyComplete = historyComplete
        evaluatedAt = snapshot.evaluatedAt
        grace = snapshot.grace
        ended = snapshot.ended
        roots = snapshot.roots
        nodes = snapshot.nodes
        leaks = snapshot.leakGroups.map { group in
            let fingerprint = group.fingerprint.description
            let standing = context?.standing(of: fingerprint, count: group.ids.count)
            return Leaks(
                fingerprint: fingerprint, type: group.fingerprint.type,
                reasonKind: group.fingerprint.reasonKind.rawValue, ids: group.ids, standing: standing?.standing, note: standing?.note
            )
        }
        if let context, !context.runs.isEmpty {
            leakHistory = LeakHistoryChart(runs: context.runs, counts: context.seen.mapValues(\.counts))
        }
        undecided = atEnd ? SessionCheck(source: "", snapshot: snapshot, atEnd: true).undecided.count : 0
        marks = snapshot.marks
        warnings = snapshot.warnings
    }
}

/// One of a coordinator's own events, as the details panel lists them.
public struct CoordinatorEvent: Encodable, Sendable {
    public var seq: Int
    public var time: Double
    public var kind: String
    /// The other coordinator the event names: the parent of an add or remove.
    public var parent: CoordinatorID?
    public var screen: String?
    /// How a dismissal came about (`screen-left`, `screen-freed`); nil for one the app reported, and for other kinds.
    public var via: DismissalCause?
    public var site: CallSite?

    /// Each coordinator's own events in `log` (those that name it as the coordinator they happen to), in order, with
    /// call sites as `paths` shares them.
    public static func byCoordinator(in log: SessionLog, paths: SourcePaths = SourcePaths()) -> [CoordinatorID: [CoordinatorEvent]] {
        var events: [CoordinatorID: [CoordinatorEvent]] = [:]
        for entry in log.entries {
            guard case .record(let record) = entry else { continue }
            var event = CoordinatorEvent(seq: record.seq, time: record.time, kind: record.event.kindName, site: record.site.map(paths.shared))
            let id: CoordinatorID
            switch record.event {
            case .add(let subject, _, let parent), .remove(let subject, let parent):
                id = subject
                event.parent = parent
            case .bind(let subject, let screen):
                id = subject
                event.screen = screen
            case .dismiss(let subject, let via):
                id = subject
                event.via = via == .reported ? nil : via
            case .deinitialized(let subject):
                id = subject
            default:
                continue
            }
            events[id, default: []].append(event)
        }
        return events
    }
}
