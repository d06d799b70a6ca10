/// The retained coordinators of many recordings grouped by leak fingerprint (type path and reason kind, as `diff`
/// matches leaks): what a nightly job reads instead of hundreds of reports.
///
/// Each recording is summarised on its own (`init(recording:…)`, any thread), then summaries are merged in input order
/// (`merge`), so "first" and "last" follow the order the recordings were given in.
package struct LeakSummary: Sendable {
    /// Where a leak was seen: the recording (file) and the session's run id in it.
    package struct RunReference: Hashable, Sendable {
        /// The recording it came from, as the input named it.
        package var source: String
        /// The session's run id.
        package var run: String
    }

    /// One retained coordinator that stands for its group.
    package struct Example: Hashable, Sendable {
        /// The recording and session it was retained in.
        package var seenIn: RunReference
        /// Its id in that session.
        package var id: CoordinatorID
        /// Where it was added; nil when the producer sent no call site.
        package var site: CallSite?
        /// Why it was retained, as `check` says it.
        package var reason: String?
    }

    /// The retained coordinators that share one fingerprint, across every recording summarised.
    package struct Group: Sendable {
        /// The leak they share.
        package var fingerprint: LeakFingerprint
        /// How many retained coordinators have it, in all.
        package var count: Int
        /// In how many recordings it appears.
        package var runs: Int
        /// In how many sessions it appears.
        package var sessions: Int
        /// The most retained coordinators with it in any one session (what a baseline allows per run).
        package var mostInOneSession: Int
        /// The first recording and session it appears in, in input order.
        package var first: RunReference
        /// The last recording and session it appears in, in input order.
        package var last: RunReference
        /// Its first retained coordinator.
        package var example: Example
        /// What keeps its coordinators (`LeakCause`), each cause once, in the order first seen.
        package var causes: [String] = []
    }

    /// The retained coordinators one cause keeps, across every recording summarised.
    package struct CauseCount: Sendable {
        /// The cause, as `check` prints it.
        package var cause: String
        /// How many retained coordinators it keeps, in all.
        package var count: Int
        /// In how many recordings it appears.
        package var runs: Int
    }

    /// Recordings summarised.
    package private(set) var recordings = 0
    /// Sessions summarised, in all recordings.
    package private(set) var sessions = 0
    /// Retained coordinators, in all.
    package private(set) var retained = 0
    /// Coordinators no session could decide, because it ended within their grace period.
    package private(set) var undecided = 0
    /// Warnings the sessions had (malformed lines, broken rules), in all.
    package private(set) var warnings = 0
    /// Sessions whose recording stops without an `end` (`SessionCheck.stoppedWithoutEnd`): no retainer search ran.
    package private(set) var stoppedWithoutEnd = 0
    /// The paths the sessions exercised, each with the most coordinators in use on it at the end of one session.
    package private(set) var census = PathCensus()
    private var groupByFingerprint: [LeakFingerprint: Int] = [:]
    private var unranked: [Group] = []
    private var causeNumbers: [String: Int] = [:]
    private var unrankedCauses: [CauseCount] = []

    /// An empty summary, to merge recordings' summaries into.
    package init() {}

    /// One recording's summary: every session's retained coordinators by fingerprint; `atEnd` as for `SessionCheck`.
    package init(recording source: String, checks: [SessionCheck]) {
        recordings = 1
        var causesSeen: Set<String> = []
        for check in checks {
            let snapshot = check.snapshot
            sessions += 1
            undecided += check.undecided.count
            warnings += snapshot.warnings.count
            if check.stoppedWithoutEnd != nil { stoppedWithoutEnd += 1 }
            let (paths, fingerprints) = PathCensus.withFingerprints(of: snapshot)
            census.merge(paths)
            let here = RunReference(source: source, run: snapshot.run)
            var inSession: [Int: Int] = [:]
            var causeOf: [CoordinatorID: String] = [:]
            for group in fingerprints.isEmpty ? [] : snapshot.causeGroups() {
                let cause = group.cause.description
                for id in group.allIDs { causeOf[id] = cause }
                countCause(cause, coordinators: group.count, newRun: !causesSeen.contains(cause))
                causesSeen.insert(cause)
            }
            for (position, fingerprint) in fingerprints {
                let node = snapshot.nodes[position]
                retained += 1
                if let number = groupByFingerprint[fingerprint] {
                    unranked[number].count += 1
                    if inSession[number] == nil { unranked[number].sessions += 1 }
                    inSession[number, default: 0] += 1
                    unranked[number].mostInOneSession = max(unranked[number].mostInOneSession, inSession[number]!)
                    unranked[number].last = here
                } else {
                    groupByFingerprint[fingerprint] = unranked.count
                    inSession[unranked.count] = 1
                    let example = Example(seenIn: here, id: node.id, site: node.site, reason: node.reason)
                    unranked.append(
                        Group(
                            fingerprint: fingerprint, count: 1, runs: 1, sessions: 1, mostInOneSession: 1, first: here, last: here, example: example
                        ))
                }
                let number = groupByFingerprint[fingerprint]!
                if let cause = causeOf[node.id], !unranked[number].causes.contains(cause) { unranked[number].causes.append(cause) }
            }
        }
    }

    private mutating func countCause(_ cause: String, coordinators: Int, newRun: Bool) {
        guard let number = causeNumbers[cause] else {
            causeNumbers[cause] = unrankedCauses.count
            unrankedCauses.append(CauseCount(cause: cause, count: coordinators, runs: 1))
            return
        }
        unrankedCauses[number].count += coordinators
        if newRun { unrankedCauses[number].runs += 1 }
    }

    /// One recording's bytes, read, replayed to `cut` and judged with `grace`; a recording with nothing to judge (empty,
    /// not a recording, no event that reads, or no such mark) is thrown back with its first bad line.
    package init(
        reading bytes: some Collection<UInt8>, source: String, grace: Double = VerdictRules.defaultGrace,
        limits: InputLimits = .default, cut: Cut = .end, aliveLimits: [AliveLimit] = []
    ) throws(LeakSummaryReport.Unusable) {
        // Judged at its end, a session needs only its last tree, built while reading, as `check` builds it: keeping
        // every line to replay them was a tenth of `baseline`'s time.
        let recording = Recording(bytes: bytes, limits: limits, keeping: cut == .end ? .treeAtEnd : .everyLine)
        if let problem = recording.unusable {
            throw LeakSummaryReport.Unusable(source: source, line: problem.line, message: problem.message)
        }
        var checks: [SessionCheck] = []
        for log in recording.sessions {
            do {
                checks.append(SessionCheck(source: source, snapshot: try log.snapshot(until: cut, grace: grace, limits: aliveLimits), atEnd: cut == .end))
            } catch {
                throw LeakSummaryReport.Unusable(source: source, line: 0, message: error.message)
            }
        }
        self.init(recording: source, checks: checks)
    }

    /// Adds `later`, a summary of recordings that come after this one's in the input.
    package mutating func merge(_ later: LeakSummary) {
        recordings += later.recordings
        sessions += later.sessions
        retained += later.retained
        undecided += later.undecided
        warnings += later.warnings
        stoppedWithoutEnd += later.stoppedWithoutEnd
        census.merge(later.census)
        for cause in later.unrankedCauses {
            countCause(cause.cause, coordinators: cause.count, newRun: true)
            if cause.runs > 1 { unrankedCauses[causeNumbers[cause.cause]!].runs += cause.runs - 1 }
        }
        for group in later.unranked {
            guard let number = groupByFingerprint[group.fingerprint] else {
                groupByFingerprint[group.fingerprint] = unranked.count
                unranked.append(group)
                continue
            }
            unranked[number].count += group.count
            unranked[number].runs += group.runs
            unranked[number].sessions += group.sessions
            unranked[number].mostInOneSession = max(unranked[number].mostInOneSession, group.mostInOneSession)
            unranked[number].last = group.last
            for cause in group.causes where !unranked[number].causes.contains(cause) { unranked[number].causes.append(cause) }
        }
    }

    /// The causes, most widespread first: by the number of runs, then of coordinators, then in the order first seen.
    package var causes: [CauseCount] {
        unrankedCauses.enumerated().sorted { a, b in
            if a.element.runs != b.element.runs { return a.element.runs > b.element.runs }
            if a.element.count != b.element.count { return a.element.count > b.element.count }
            return a.offset < b.offset
        }.map(\.element)
    }

    /// The groups, most widespread first: by the number of runs, then of coordinators, then by fingerprint.
    package var groups: [Group] {
        unranked.sorted {
            if $0.runs != $1.runs { return $0.runs > $1.runs }
            if $0.count != $1.count { return $0.count > $1.count }
            return $0.fingerprint < $1.fingerprint
        }
    }

    /// Whether CI should fail, as for `check`: a leak, or (unless allowed) a coordinator a run ended too early to judge.
    package func fails(allowingUndecided: Bool) -> Bool {
        retained > 0 || (!allowingUndecided && undecided > 0)
    }

    /// Each retained node's position in `snapshot.nodes` with its fingerprint, as `diff` computes them.
    static func fingerprints(of snapshot: Snapshot) -> [(position: Int, fingerprint: LeakFingerprint)] {
        let retained = snapshot.nodes.indices.filter { snapshot.nodes[$0].verdict == .retained }
        guard !retained.isEmpty else { return [] }
        let index = TypePathIndex(snapshot)
        var typePaths = TypePathInterner()
        var memo = [Int](repeating: -1, count: snapshot.nodes.count)
        var byPath: [Int: (types: [String], omitted: Int)] = [:]
        return retained.map { position in
            let number = typePaths.id(of: position, in: index, memo: &memo)
            let path = byPath[number] ?? typePaths.types(of: number)
            byPath[number] = path
            let fingerprint = LeakFingerprint(types: path.types, omittedSteps: path.omitted, reasonKind: snapshot.nodes[position].leakReasonKind)
            return (position, fingerprint)
        }
    }
}
