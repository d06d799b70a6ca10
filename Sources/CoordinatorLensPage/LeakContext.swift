import CoordinatorLens

/// What the page knows about leaks beyond one run (`view --baseline`/`--history`): which fingerprints a baseline
/// accepts, and for each fingerprint in a history how often and since when it occurred, with its count per stored run
/// for the chart. Values only: the command line reads the baseline file and the store.
public struct LeakContext: Sendable, Encodable {
    /// One fingerprint in the history.
    public struct Seen: Sendable, Encodable {
        /// In how many of the stored runs it occurs.
        public var runs: Int
        /// The day of the first run that had it, `2026-11-03`.
        public var since: String
        /// Its count in each of `LeakContext.runs`, oldest first (0 where a run did not have it).
        public var counts: [Int]

        /// A fingerprint seen in `runs` runs since `since`, with `counts` per stored run.
        public init(runs: Int, since: String, counts: [Int]) {
            self.runs = runs
            self.since = since
            self.counts = counts
        }
    }

    /// A stored run, as the chart labels it.
    public struct Run: Sendable, Encodable {
        /// `2026-11-23`.
        public var day: String
        /// The commit, when one was stored.
        public var commit: String?

        /// A run of `day` at `commit`.
        public init(day: String, commit: String?) {
            self.day = day
            self.commit = commit
        }
    }

    /// The baseline's counts by fingerprint (as printed); nil without `--baseline`.
    public var baseline: [String: Int]?
    /// The stored runs the history counts cover, oldest first; empty without `--history`.
    public var runs: [Run]
    /// The history's fingerprints (as printed).
    public var seen: [String: Seen]

    /// A context of a baseline and a history; either may be missing.
    public init(baseline: LeakBaseline?, runs: [Run] = [], seen: [String: Seen] = [:]) {
        self.baseline = baseline.map { Dictionary(uniqueKeysWithValues: $0.counts.map { ($0.key.description, $0.value) }) }
        self.runs = runs
        self.seen = seen
    }

    /// How a leak group of `count` coordinators stands: known (accepted by the baseline, or, without one, seen in an
    /// earlier stored run) or new, and the note the page shows.
    func standing(of fingerprint: String, count: Int) -> (standing: String, note: String) {
        var notes: [String] = []
        var known: Bool?
        if let baseline {
            if let allowed = baseline[fingerprint] {
                known = count <= allowed
                notes.append(count <= allowed ? "known: in the baseline" : "new: \(count) here, \(allowed) in the baseline")
            } else {
                known = false
                notes.append("new: not in the baseline")
            }
        }
        if !runs.isEmpty {
            if let seen = seen[fingerprint] {
                notes.append("seen in \(seen.runs) of the last \(runs.count) runs since \(seen.since)")
                if known == nil { known = true }
            } else {
                notes.append("not in the \(runs.count) stored runs")
                if known == nil { known = false }
            }
        }
        return (known == true ? "known" : "new", notes.joined(separator: "; "))
    }
}
