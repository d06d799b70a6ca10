/// The leaks a project accepts for now, by fingerprint, each with the most retained coordinators one run may have
/// with it: `check --baseline` fails only on fingerprints not in it or runs that have more.
package struct LeakBaseline: Sendable, Equatable {
    /// The accepted fingerprints and how many coordinators with each one run may retain.
    package var counts: [LeakFingerprint: Int]
    /// The paths the baseline's runs exercised, each with the most coordinators in use on it at the end of one run: a
    /// checked run with more on a path has piled them up.
    package var census: PathCensus

    /// A baseline of `counts`, with `census` for the paths it covers.
    package init(counts: [LeakFingerprint: Int], census: PathCensus = PathCensus()) {
        self.counts = counts
        self.census = census
    }

    /// The leaks of `checks`: each fingerprint with the most coordinators any one session retained with it.
    package init(checks: [SessionCheck]) {
        var counts: [LeakFingerprint: Int] = [:]
        var census = PathCensus()
        for check in checks {
            for group in check.snapshot.leakGroups {
                counts[group.fingerprint] = max(counts[group.fingerprint] ?? 0, group.ids.count)
            }
            census.merge(PathCensus(check.snapshot))
        }
        self.counts = counts
        self.census = census
    }

    /// The leaks of a summary of many recordings: each fingerprint with the most coordinators one session retained.
    package init(summary: LeakSummary) {
        var counts: [LeakFingerprint: Int] = [:]
        for group in summary.groups { counts[group.fingerprint] = group.mostInOneSession }
        self.counts = counts
        self.census = summary.census
    }

    /// The entries in fingerprint order, as the baseline file lists them.
    package var entries: [LeakCount] {
        counts.map { LeakCount(fingerprint: $0.key, count: $0.value) }.sorted { $0.fingerprint < $1.fingerprint }
    }
}

extension LeakBaseline {
    /// How a summary's group stands against the baseline: known (accepted) when every session had at most the
    /// baseline's count, else new or grown.
    package func note(for group: LeakSummary.Group) -> LeakNotes.Note {
        guard let allowed = counts[group.fingerprint] else { return LeakNotes.Note(accepted: false, text: "new: not in the baseline") }
        guard group.mostInOneSession <= allowed else {
            return LeakNotes.Note(accepted: false, text: "new: \(group.mostInOneSession) in one session, \(allowed) in the baseline")
        }
        return LeakNotes.Note(accepted: true, text: "known: in the baseline")
    }

    /// The baseline's entries that none of `summary`'s groups has, though its runs exercised their path: fixed.
    package func fixed(in summary: LeakSummary) -> [LeakCount] {
        let seen = Set(summary.groups.map(\.fingerprint))
        return entries.filter { !seen.contains($0.fingerprint) && summary.census.exercised(PathCensus.Path($0.fingerprint)) }
    }

    /// The baseline's entries whose path none of `summary`'s runs exercised: neither fixed nor leaking, just not run.
    package func notExercised(in summary: LeakSummary) -> [LeakCount] {
        entries.filter { !summary.census.exercised(PathCensus.Path($0.fingerprint)) }
    }
}

extension LeakSummary {
    /// Whether CI should fail, as for `check --baseline`: a group the baseline does not accept, or (unless allowed) a
    /// coordinator a run ended too early to judge.
    package func fails(allowingUndecided: Bool, baseline: LeakBaseline?) -> Bool {
        guard let baseline else { return fails(allowingUndecided: allowingUndecided) }
        return groups.contains { !baseline.note(for: $0).accepted } || (!allowingUndecided && undecided > 0)
    }
}
