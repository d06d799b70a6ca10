/// Each leak fingerprint of a set of stored runs: since when and how often it occurs, and whether the newest run is
/// the first to have it.
package struct LeakHistory: Sendable {
    /// One fingerprint across the runs.
    package struct Line: Sendable {
        /// The fingerprint as printed.
        package var fingerprint: String
        /// In how many of the runs it occurs.
        package var runs: Int
        /// How many of the runs exercised its path (created a coordinator there), or were stored before the history
        /// kept paths: a run of another UI test that never opened the flow does not count against it.
        package var ofRuns: Int
        /// Retained coordinators with it, in all runs.
        package var count: Int
        /// The first run that had it.
        package var firstSeen: StoredRun
        /// The last run that had it.
        package var lastSeen: StoredRun
        /// How many coordinators the newest run retained with it; 0 when that run does not have it.
        package var countInNewestRun: Int
        /// Whether the newest run is the first to have it.
        package var isNew: Bool
        /// The first run's example call site: file, line and function.
        package var example: StoredLeak
    }

    /// The runs looked at, oldest first.
    package var runs: [StoredRun]
    /// New fingerprints first, then the most widespread, then in fingerprint order.
    package var lines: [Line]

    /// The newest run looked at.
    package var newest: StoredRun? { runs.last }

    /// The app all the runs are of, if they are of one.
    package var app: String? { Set(runs.map(\.app)).count == 1 ? runs.first?.app : nil }

    /// Groups `leaks` (rows of `runs` only) by fingerprint.
    package init(runs: [StoredRun], leaks: [StoredLeak]) {
        self.runs = runs
        var runByID: [Int: StoredRun] = [:]
        for run in runs { runByID[run.id] = run }
        let newestID = runs.last?.id
        var lineOf: [String: Int] = [:]
        var lines: [Line] = []
        for leak in leaks.sorted(by: { $0.runID < $1.runID }) {
            guard let run = runByID[leak.runID] else { continue }
            let inNewest = leak.runID == newestID ? leak.count : 0
            if let number = lineOf[leak.fingerprint] {
                lines[number].runs += 1
                lines[number].count += leak.count
                lines[number].lastSeen = run
                lines[number].countInNewestRun += inNewest
            } else {
                lineOf[leak.fingerprint] = lines.count
                let path = leak.path ?? Self.path(of: leak.fingerprint)
                let exercising = runs.reduce(0) { $0 + ($1.exercised(path) ? 1 : 0) }
                lines.append(
                    Line(
                        fingerprint: leak.fingerprint, runs: 1, ofRuns: exercising, count: leak.count, firstSeen: run, lastSeen: run,
                        countInNewestRun: inNewest, isNew: leak.runID == newestID, example: leak
                    ))
            }
        }
        for number in lines.indices {
            // A run that leaked on a path exercised it, whatever its stored paths say.
            lines[number].ofRuns = Swift.max(lines[number].ofRuns, lines[number].runs)
        }
        self.lines = lines.sorted {
            if $0.isNew != $1.isNew { return $0.isNew }
            if $0.runs != $1.runs { return $0.runs > $1.runs }
            return $0.fingerprint < $1.fingerprint
        }
    }

    /// One history per app and label, in the order each first occurs: the runs of one UI test apart from another's.
    package static func grouped(runs: [StoredRun], leaks: [StoredLeak]) -> [LeakHistory] {
        struct Key: Hashable {
            var app: String
            var label: String?
        }
        var order: [Key] = []
        var runsOf: [Key: [StoredRun]] = [:]
        var keyOf: [Int: Key] = [:]
        for run in runs {
            let key = Key(app: run.app, label: run.label)
            if runsOf[key] == nil { order.append(key) }
            runsOf[key, default: []].append(run)
            keyOf[run.id] = key
        }
        var leaksOf: [Key: [StoredLeak]] = [:]
        for leak in leaks {
            guard let key = keyOf[leak.runID] else { continue }
            leaksOf[key, default: []].append(leak)
        }
        return order.map { LeakHistory(runs: runsOf[$0] ?? [], leaks: leaksOf[$0] ?? []) }
    }

    /// The path a printed fingerprint names, `AppCoordinator/HomeCoordinator (still-child)` without its reason: for
    /// rows stored before the history kept paths.
    static func path(of fingerprint: String) -> String {
        guard let open = fingerprint.range(of: " (", options: .backwards) else { return fingerprint }
        return String(fingerprint[..<open.lowerBound])
    }

    /// The line of `fingerprint`, if any run had it.
    package func line(_ fingerprint: String) -> Line? {
        lines.first { $0.fingerprint == fingerprint }
    }
}
