import CoordinatorLens

/// One session as the sessions list shows it; the live feed pushes it whenever the session changes.
package struct SessionSummary: Codable, Equatable, Sendable {
    /// The run id.
    package var run: String
    /// The app's name.
    package var app: String
    /// `live`, `disconnected`, `ended` or `recorded` (read from a file).
    package var state: String
    /// Grows with every change.
    package var version: Int
    /// The inspector's judgement this summary comes from (`listen`, `view`): grows with each, so a page keeps the
    /// newest it heard of and redraws a session it shows when this moves; nil in a report.
    package var judgement: Int?
    /// Events applied so far.
    package var events: Int
    /// Coordinators ever seen.
    package var coordinators: Int
    /// Coordinators per verdict; verdicts with none are left out.
    package var counts: [String: Int]
    /// Warnings kept for the session.
    package var warnings: Int
    /// The highest seq applied.
    package var lastSeq: Int?
    /// With a baseline or history: retained coordinators that are not known leaks (new or grown); nil without one.
    package var unknownLeaks: Int?

    /// The summary of `snapshot` in `state`, after `events` events, at change number `version`.
    package init(_ snapshot: Snapshot, state: String, version: Int, events: Int) {
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
package struct TreeModel: Encodable, Sendable {
    /// Retained coordinators sharing a fingerprint.
    /// Retained coordinators sharing a fingerprint and a cause: a fingerprint whose leaks have two causes is two rows.
    package struct Leaks: Encodable, Sendable {
        /// The fingerprint as `diff` prints it: the type path and the reason kind.
        package var fingerprint: String
        package var type: String
        package var reasonKind: String
        package var ids: [CoordinatorID]
        /// With `view --baseline`/`--history`: `known` or `new`, and the note the page shows beside it.
        package var standing: String?
        package var note: String?
        /// What keeps them (`CauseGroup`): the list shows the rows of one cause under it, the cause first.
        package var cause: String = ""
        /// Those of `ids` held only through another leak of the cause.
        package var through: [CoordinatorID] = []

        /// Where the group goes in the list: new, grown, unjudged, known.
        var rank: Int {
            switch standing {
            case "new": 0
            case "grown": 1
            case nil: 2
            default: 3
            }
        }
    }

    package var summary: SessionSummary
    /// The event the view stops after; nil for the present.
    package var seq: Int?
    /// The slider's range: the first and last event of the session that time travel can reach.
    package var firstSeq: Int?
    package var lastSeq: Int?
    /// False when the session outgrew the kept history, so the slider reaches only its first part.
    package var historyComplete: Bool
    package var evaluatedAt: Double
    package var grace: Double
    package var ended: Bool
    package var roots: [CoordinatorID]
    package var nodes: [SnapshotNode]
    package var leaks: [Leaks]
    /// Pending coordinators of a session seen to its end (ended, or read from a file): `check` fails on them too.
    package var undecided: Int
    /// For a session seen to its end that never sent `end` (the app died): the sentence `check` gives; nil otherwise.
    package var stoppedWithoutEnd: String?
    package var marks: [Mark]
    package var warnings: [Diagnostic]
    /// The stored runs and each fingerprint's count in them, for the page's chart; nil without `--history`.
    package var leakHistory: LeakHistoryChart?
    /// Who holds each coordinator the hook's retainer search looked at: the details pane's leak trace.
    package var heldBy: [Held]
    /// How the leak rows open a call site (`--editor-url`): a URL template or a command to copy.
    package var editorURL: String?
    /// The checkout's absolute path (`--source-root`), which Open puts before a path the rows show relative to it.
    package var sourceRoot: String?
    /// The event the view stops after, in words (`ProductCoordinator#6 dismissed`), for the time slider.
    package var event: String?

    /// One coordinator's leak trace.
    package struct Held: Encodable, Sendable {
        package var id: CoordinatorID
        package var by: HeldBy
        /// `by` in one line, as `check` prints it.
        package var text: String
        /// For a retained coordinator's trace: whether each holder is leaking (`no`, `yes`, `unknown`), then itself.
        package var leaking: [LeakTrace.State]?
        /// The steps whose references are suspect (`LeakTrace.suspects`), for the page to underline.
        package var suspects: [Int]?
    }

    /// What the chart of a fingerprint's count per stored run draws.
    package struct LeakHistoryChart: Encodable, Sendable {
        package var runs: [LeakContext.Run]
        package var counts: [String: [Int]]
    }

    /// The model of `snapshot`; `history` is what the slider can reach, `atEnd` says the snapshot is the end of
    /// everything the session will send, where pending means undecided.
    package init(
        _ snapshot: Snapshot, summary: SessionSummary, seq: Int?, history: SessionLog?, historyComplete: Bool, atEnd: Bool,
        context: LeakContext? = nil
    ) {
        // Scanned from either end, as a session's history can hold a million lines and this runs on every update.
        func recordSeq(_ entry: SessionLog.Entry) -> Int? {
            if case .record(let record) = entry { record.seq } else { nil }
        }
        let entries = history?.entries ?? []
        self.init(
            snapshot, summary: summary, seq: seq, historySeqs: (entries.lazy.compactMap(recordSeq).first, entries.reversed().lazy.compactMap(recordSeq).first),
            historyComplete: historyComplete, atEnd: atEnd, context: context)
    }

    /// The model of `snapshot`, the slider reaching the seqs `historySeqs` (the first and last event kept), for a
    /// caller that knows them without a copy of the whole history (the live server).
    package init(
        _ snapshot: Snapshot, summary: SessionSummary, seq: Int?, historySeqs: (first: Int?, last: Int?), historyComplete: Bool, atEnd: Bool,
        context: LeakContext? = nil
    ) {
        self.summary = summary
        self.seq = seq
        firstSeq = historySeqs.first
        lastSeq = historyComplete ? summary.lastSeq : historySeqs.last
        self.historyComplete = historyComplete
        evaluatedAt = snapshot.evaluatedAt
        grace = snapshot.grace
        ended = snapshot.ended
        roots = snapshot.roots
        nodes = snapshot.nodes
        // New leaks first, then grown ones, then those without a baseline or history, known ones last: what a change
        // brought is what the reader came for.
        // Each fingerprint's leaks split by cause, so the list can put the rows of one cause together under it.
        let causes = snapshot.causeGroups()
        var causeOf: [CoordinatorID: Int] = [:]
        var heldThrough: Set<CoordinatorID> = []
        let causeTexts = causes.map(\.cause.description)
        for (number, group) in causes.enumerated() {
            for id in group.allIDs { causeOf[id] = number }
            heldThrough.formUnion(group.heldThrough.map(\.id))
        }
        leaks = snapshot.leakGroups.flatMap { group in
            let fingerprint = group.fingerprint.description
            let standing = context?.standing(of: fingerprint, count: group.ids.count)
            func row(_ ids: [CoordinatorID], cause number: Int) -> Leaks {
                Leaks(
                    fingerprint: fingerprint, type: group.fingerprint.type, reasonKind: group.fingerprint.reasonKind.rawValue, ids: ids,
                    standing: standing?.standing, note: standing?.note, cause: number >= 0 ? causeTexts[number] : "",
                    through: heldThrough.isEmpty ? [] : ids.filter(heldThrough.contains))
            }
            // Most fingerprints have one cause: one row, without splitting the ids.
            let first = group.ids.first.flatMap { causeOf[$0] } ?? -1
            if group.ids.allSatisfy({ (causeOf[$0] ?? -1) == first }) { return [row(group.ids, cause: first)] }
            var order: [Int] = []
            var parts: [Int: [CoordinatorID]] = [:]
            for id in group.ids {
                let number = causeOf[id] ?? -1
                if parts[number] == nil { order.append(number) }
                parts[number, default: []].append(id)
            }
            return order.map { row(parts[$0]!, cause: $0) }
        }
        .enumerated().sorted { ($0.element.rank, $0.offset) < ($1.element.rank, $1.offset) }.map(\.element)
        if let context, !context.runs.isEmpty {
            leakHistory = LeakHistoryChart(runs: context.runs, counts: context.seen.mapValues(\.counts))
        }
        let check = atEnd ? SessionCheck(source: "", snapshot: snapshot, atEnd: true) : nil
        undecided = check?.undecided.count ?? 0
        stoppedWithoutEnd = check?.stoppedWithoutEnd
        marks = snapshot.marks
        warnings = snapshot.warnings
        heldBy = snapshot.heldBy.compactMap { id, by in
            snapshot.node(id).map { node in
                let trace = node.verdict == .retained ? snapshot.leakTrace(of: id, heldBy: by) : nil
                return Held(id: id, by: by, text: by.text(target: "\(node.type)#\(id)"), leaking: trace?.states, suspects: trace.map { Array($0.suspects) })
            }
        }.sorted { $0.text < $1.text }
    }
}

/// One of a coordinator's own events, as the details panel lists them.
package struct CoordinatorEvent: Encodable, Sendable {
    package var seq: Int
    package var time: Double
    package var kind: String
    /// The other coordinator the event names: the parent of an add or remove.
    package var parent: CoordinatorID?
    package var screen: String?
    /// How a dismissal came about (`screen-left`, `screen-freed`); nil for one the app reported, and for other kinds.
    package var via: DismissalCause?
    package var site: CallSite?

    /// Each coordinator's own events in `log` (those that name it as the coordinator they happen to), in order, with
    /// call sites as `paths` shares them.
    package static func byCoordinator(in log: SessionLog, paths: SourcePaths = SourcePaths()) -> [CoordinatorID: [CoordinatorEvent]] {
        var events: [CoordinatorID: [CoordinatorEvent]] = [:]
        for entry in log.entries {
            guard case .record(let record) = entry else { continue }
            var event = CoordinatorEvent(seq: record.seq, time: record.time, kind: record.event.kindName, site: record.site.map(paths.shared))
            let id: CoordinatorID
            switch record.event {
            case .add(let subject, _, let parent), .remove(let subject, let parent):
                id = subject
                event.parent = parent
            case .watch(let subject, _, let owner):
                id = subject
                event.parent = owner
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
