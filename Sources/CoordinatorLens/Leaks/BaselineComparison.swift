/// A check's leaks against a baseline, fingerprint by fingerprint and session by session: known (no more than the
/// baseline allows), grown (more: the ones beyond the baseline's count are new), new (not in it), and the baseline's
/// entries no session has any more (fixed: remove them from the baseline).
package struct BaselineComparison: Sendable {
    /// One fingerprint in one session.
    package struct Line: Sendable, Hashable {
        /// The session's index in `CheckResult.sessions`.
        package var session: Int
        /// The leak.
        package var fingerprint: LeakFingerprint
        /// Retained coordinators with it in that session.
        package var count: Int
        /// The baseline's count; 0 when the fingerprint is not in the baseline.
        package var allowed: Int

        /// In the baseline, no more than it allows.
        package var isKnown: Bool { allowed > 0 && count <= allowed }
        /// Not in the baseline at all.
        package var isNew: Bool { allowed == 0 }
        /// In the baseline, with more than it allows.
        package var hasGrown: Bool { allowed > 0 && count > allowed }
    }

    /// Every fingerprint of every session, sessions in input order, fingerprints in order.
    package var lines: [Line]
    /// Baseline entries that no session has, though some session exercised their path: fixed.
    package var fixed: [LeakCount]
    /// Baseline entries whose path no session exercised (a recording of another flow): neither fixed nor leaking.
    package var notExercised: [LeakCount]
    /// Paths on which a session had more coordinators in use at its end than the baseline's runs had.
    package var pileUps: [PileUp]
    /// Baseline entries that some session has, but fewer times than allowed in every session that has them: the
    /// baseline's count can come down.
    package var fewer: [LeakCount]
    /// A note per retained coordinator: known ones accepted, the rest (new, or beyond a grown count) not.
    package var notes: LeakNotes

    /// Compares `result`'s leaks with `baseline`.
    package init(_ result: CheckResult, baseline: LeakBaseline) {
        var lines: [Line] = []
        var notes = LeakNotes()
        var most: [LeakFingerprint: Int] = [:]
        var checked = PathCensus()
        var pileUps: [PileUp] = []
        for (index, check) in result.sessions.enumerated() {
            let census = PathCensus(check.snapshot)
            checked.merge(census)
            pileUps += PileUp.find(in: census, against: baseline.census, session: index)
            for group in check.snapshot.leakGroups.sorted(by: { $0.fingerprint < $1.fingerprint }) {
                let allowed = baseline.counts[group.fingerprint] ?? 0
                lines.append(Line(session: index, fingerprint: group.fingerprint, count: group.ids.count, allowed: allowed))
                most[group.fingerprint] = max(most[group.fingerprint] ?? 0, group.ids.count)
                // The first ones added stand for the baseline's; any beyond its count are the new ones.
                for (position, id) in group.ids.enumerated() {
                    let note: LeakNotes.Note
                    if allowed == 0 {
                        note = .init(accepted: false, text: "new: not in the baseline")
                    } else if position < allowed {
                        note = .init(accepted: true, text: "known: in the baseline")
                    } else {
                        note = .init(accepted: false, text: "new: \(group.ids.count) in this run, \(allowed) in the baseline")
                    }
                    notes.add(note, session: index, id: id)
                }
            }
        }
        self.lines = lines
        self.notes = notes
        self.pileUps = pileUps
        let unseen = baseline.entries.filter { most[$0.fingerprint] == nil }
        fixed = unseen.filter { checked.exercised(PathCensus.Path($0.fingerprint)) }
        notExercised = unseen.filter { !checked.exercised(PathCensus.Path($0.fingerprint)) }
        fewer = baseline.entries.compactMap { entry in
            guard let seen = most[entry.fingerprint], seen < entry.count else { return nil }
            return LeakCount(fingerprint: entry.fingerprint, count: seen)
        }
    }

    /// Lines not accepted: new fingerprints and grown counts.
    package var failing: [Line] { lines.filter { !$0.isKnown } }

    /// Whether the comparison alone fails the run: a path piled up past the baseline (new and grown leaks fail
    /// through the notes).
    package var failsOnPileUps: Bool { !pileUps.isEmpty }

    /// The block `check` prints after its report: new and grown first, then known, then fixed.
    package func text(baseline name: String, sessions: [SessionCheck], entries baseline: LeakBaseline) -> String {
        let several = Set(lines.map(\.session)).count > 1
        func place(_ line: Line) -> String {
            several ? " in \(sessions[line.session].snapshot.app) run \(sessions[line.session].snapshot.run)" : ""
        }
        var out = [
            "baseline \(name): \(lines.filter(\.isNew).count) new, \(lines.filter(\.hasGrown).count) grown, "
                + "\(lines.filter(\.isKnown).count) known, \(fixed.count) fixed"
                + (notExercised.isEmpty ? "" : ", \(notExercised.count) not exercised")
                + (pileUps.isEmpty ? "" : ", \(pileUps.count) piled up")
        ]
        for pileUp in pileUps {
            let place = several ? " in \(sessions[pileUp.session].snapshot.app) run \(sessions[pileUp.session].snapshot.run)" : ""
            out.append("  PILED UP \(pileUp.text(reference: "the baseline"))\(place)")
        }
        for line in lines where line.isNew { out.append("  NEW   \(line.fingerprint) ×\(line.count)\(place(line))") }
        for line in lines where line.hasGrown {
            out.append("  GROWN \(line.fingerprint) ×\(line.count), \(line.allowed) in the baseline\(place(line))")
        }
        for line in lines where line.isKnown { out.append("  known \(line.fingerprint) ×\(line.count)\(place(line))") }
        for entry in fixed {
            out.append("  fixed \(entry.fingerprint) (\(entry.count) in the baseline): no longer occurs; remove it from the baseline")
        }
        for entry in notExercised {
            out.append("  not exercised \(entry.fingerprint): no checked run created a \(entry.fingerprint.type) on its path")
        }
        for entry in fewer {
            out.append("  fewer \(entry.fingerprint): at most \(entry.count) in a run, \(baseline.counts[entry.fingerprint] ?? 0) in the baseline; lower it")
        }
        return out.map(TextSanitizer.visible).joined(separator: "\n")
    }
}
