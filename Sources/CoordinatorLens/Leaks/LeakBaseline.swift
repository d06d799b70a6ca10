/// The leaks a project accepts for now, by fingerprint, each with the most retained coordinators one run may have
/// with it: `check --baseline` fails only on fingerprints not in it or runs that have more.
package struct LeakBaseline: Sendable, Equatable {
    /// The accepted fingerprints and how many coordinators with each one run may retain.
    package var counts: [LeakFingerprint: Int]

    /// A baseline of `counts`.
    package init(counts: [LeakFingerprint: Int]) {
        self.counts = counts
    }

    /// The leaks of `checks`: each fingerprint with the most coordinators any one session retained with it.
    package init(checks: [SessionCheck]) {
        var counts: [LeakFingerprint: Int] = [:]
        for check in checks {
            for group in check.snapshot.leakGroups {
                counts[group.fingerprint] = max(counts[group.fingerprint] ?? 0, group.ids.count)
            }
        }
        self.counts = counts
    }

    /// The leaks of a summary of many recordings: each fingerprint with the most coordinators one session retained.
    package init(summary: LeakSummary) {
        var counts: [LeakFingerprint: Int] = [:]
        for group in summary.groups { counts[group.fingerprint] = group.mostInOneSession }
        self.counts = counts
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

    /// The baseline's entries that none of `summary`'s groups has: fixed.
    package func fixed(in summary: LeakSummary) -> [LeakCount] {
        let seen = Set(summary.groups.map(\.fingerprint))
        return entries.filter { !seen.contains($0.fingerprint) }
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
