import CoordinatorLens

/// What the page knows about leaks beyond one run (`view --baseline`/`--history`): which fingerprints a baseline
/// accepts, and for each fingerprint in a history how often and since when it occurred, with its count per stored run
/// for the chart. Values only: the command line reads the baseline file and the store.
package struct LeakContext: Sendable, Encodable {
    /// One fingerprint in the history.
    package struct Seen: Sendable, Encodable {
        /// In how many of the stored runs it occurs.
        package var runs: Int
        /// How many of the stored runs reached its path: runs of other flows do not count.
        package var ofRuns: Int
        /// The day of the first run that had it, `2026-11-03`.
        package var since: String
        /// Its count in each of `LeakContext.runs`, oldest first (0 where a run did not have it).
        package var counts: [Int]

        /// A fingerprint seen in `runs` of the `ofRuns` runs that reached its path since `since`, with `counts` per
        /// stored run.
        package init(runs: Int, ofRuns: Int, since: String, counts: [Int]) {
            self.runs = runs
            self.ofRuns = ofRuns
            self.since = since
            self.counts = counts
        }
    }

    /// A stored run, as the chart labels it.
    package struct Run: Sendable, Encodable {
        /// `2026-11-23`.
        package var day: String
        /// The commit, when one was stored.
        package var commit: String?

        /// A run of `day` at `commit`.
        package init(day: String, commit: String?) {
            self.day = day
            self.commit = commit
        }
    }

    /// The baseline's counts by fingerprint (as printed); nil without `--baseline`.
    package var baseline: [String: Int]?
    /// The stored runs the history counts cover, oldest first; empty without `--history`.
    package var runs: [Run]
    /// The history's fingerprints (as printed).
    package var seen: [String: Seen]

    /// A context of a baseline and a history; either may be missing.
    package init(baseline: LeakBaseline?, runs: [Run] = [], seen: [String: Seen] = [:]) {
        self.baseline = baseline.map { Dictionary(uniqueKeysWithValues: $0.counts.map { ($0.key.description, $0.value) }) }
        self.runs = runs
        self.seen = seen
    }

    /// How a leak group of `count` coordinators stands: known (accepted by the baseline, or, without one, seen in an
    /// earlier stored run), grown (in the baseline, more of it now) or new, and the note the page shows.
    package func standing(of fingerprint: String, count: Int) -> (standing: String, note: String) {
        var notes: [String] = []
        var known: Bool?
        var grown = false
        if let baseline {
            if let allowed = baseline[fingerprint] {
                known = count <= allowed
                grown = count > allowed
                notes.append(count <= allowed ? "known: in the baseline" : "new: \(count) here, \(allowed) in the baseline")
            } else {
                known = false
                notes.append("new: not in the baseline")
            }
        }
        if !runs.isEmpty {
            if let seen = seen[fingerprint] {
                notes.append(
                    "seen in \(seen.runs) of the last \(seen.ofRuns) runs\(seen.ofRuns < runs.count ? " that reached its path" : "") since \(seen.since)")
                if known == nil { known = true }
            } else {
                notes.append("not in the \(runs.count) stored runs")
                if known == nil { known = false }
            }
        }
        return (known == true ? "known" : grown ? "grown" : "new", notes.joined(separator: "; "))
    }
}
