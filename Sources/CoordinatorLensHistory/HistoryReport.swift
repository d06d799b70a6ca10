import CoordinatorLens
import Foundation

/// `coordlens history`'s listing: every fingerprint with first and last sighting and in how many runs it occurred.
/// Text from the store goes through `TextSanitizer`, as recordings' text does everywhere else.
package enum HistoryReport {
    /// One block per app and label (one UI test's runs apart from another's): the runs looked at, then a line per
    /// fingerprint with its example call site.
    package static func text(for groups: [LeakHistory], store: String) -> String {
        let all = groups.flatMap(\.runs).sorted { $0.id < $1.id }
        guard let newest = all.last, let oldest = all.first else {
            return "history \(store): no runs stored (or none that match)"
        }
        guard groups.count > 1 else { return text(for: groups[0], heading: "history \(store)") }
        var blocks = [
            "history \(store): \(runs(all.count)) from \(oldest.day) to \(newest.day), in \(groups.count) groups by app and label"
        ]
        for group in groups {
            let first = group.runs[0]
            blocks.append(text(for: group, heading: "\(first.app)\(first.label.map { " (label \($0))" } ?? " (no label)")"))
        }
        return blocks.joined(separator: "\n")
    }

    private static func runs(_ count: Int) -> String { count == 1 ? "1 run" : "\(count) runs" }

    private static func text(for history: LeakHistory, heading: String) -> String {
        let total = history.runs.count
        guard let newest = history.newest, let oldest = history.runs.first else { return "\(heading): no runs" }
        var lines = [
            "\(heading): \(runs(total)) from \(oldest.day) to \(newest.day), "
                + "\(history.lines.count == 1 ? "1 leak fingerprint" : "\(history.lines.count) leak fingerprints"); newest run \(describe(newest))"
        ]
        for line in history.lines {
            let mark = line.isNew ? "NEW " : line.countInNewestRun > 0 ? "seen" : "    "
            lines.append("  \(mark) \(line.fingerprint)")
            var facts = "       in \(line.runs) of \(runs(line.ofRuns))"
            if line.ofRuns < total { facts += " that reached its path (\(total - line.ofRuns) more never did)" }
            facts += "; first seen \(describe(line.firstSeen)), last seen \(describe(line.lastSeen))"
            if line.countInNewestRun > 0 { facts += "; \(line.countInNewestRun) in the newest run" }
            lines.append(facts)
            if let file = line.example.exampleFile {
                let function = line.example.exampleFunction.map { " in \($0)" } ?? ""
                lines.append("       added at \(file):\(line.example.exampleLine ?? 0)\(function)")
            }
        }
        return lines.map(TextSanitizer.visible).joined(separator: "\n")
    }

    /// The same as JSON, keys sorted, for scripts and dashboards: every group's fingerprints in one list, each with
    /// its app and label.
    package static func json(for groups: [LeakHistory], store: String) -> String {
        struct Sighting: Encodable {
            var at: String, app: String, run: String, commit: String?, branch: String?, label: String?
            init(_ run: StoredRun) {
                (at, app, self.run, commit, branch, label) = (run.recordedAt, run.app, run.run, run.commit, run.branch, run.label)
            }
        }
        struct Example: Encodable { var file: String, line: Int, function: String? }
        struct Line: Encodable {
            var fingerprint: String, app: String, label: String?, runs: Int, ofRuns: Int, runsInGroup: Int, count: Int
            var countInNewestRun: Int, newInNewestRun: Bool
            var firstSeen: Sighting, lastSeen: Sighting, example: Example?
        }
        struct Group: Encodable { var app: String, label: String?, runs: Int, newestRun: Sighting }
        struct Listing: Encodable {
            var store: String, runs: Int, newestRun: Sighting?, groups: [Group], fingerprints: [Line]
        }
        let all = groups.flatMap(\.runs).sorted { $0.id < $1.id }
        let listing = Listing(
            store: store, runs: all.count, newestRun: all.last.map(Sighting.init),
            groups: groups.compactMap { group in
                group.newest.map { Group(app: $0.app, label: $0.label, runs: group.runs.count, newestRun: Sighting($0)) }
            },
            fingerprints: groups.flatMap { group in
                group.lines.map { line in
                    Line(
                        fingerprint: line.fingerprint, app: line.firstSeen.app, label: line.firstSeen.label, runs: line.runs,
                        ofRuns: line.ofRuns, runsInGroup: group.runs.count, count: line.count,
                        countInNewestRun: line.countInNewestRun, newInNewestRun: line.isNew,
                        firstSeen: Sighting(line.firstSeen), lastSeen: Sighting(line.lastSeen),
                        example: line.example.exampleFile.map { Example(file: $0, line: line.example.exampleLine ?? 0, function: line.example.exampleFunction) }
                    )
                }
            }
        )
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: (try? encoder.encode(listing)) ?? Data("{}".utf8), as: UTF8.self)
    }

    /// `2026-11-23 at abc1234 (main)`: the day, then the commit and branch when given.
    package static func describe(_ run: StoredRun) -> String {
        var text = run.day
        if let commit = run.commit { text += " at \(commit.prefix(12))" }
        if let branch = run.branch { text += " (\(branch))" }
        return text
    }

    /// For `check --history`: `seen before in 2 of 3 runs since 2026-11-03 at abc1234`, or `NEW` when no earlier run of
    /// `history` (which ends with the run being checked) had the fingerprint. Only runs that reached the fingerprint's path
    /// count.
    package static func mark(_ fingerprint: String, in history: LeakHistory) -> (isNew: Bool, text: String) {
        guard let line = history.line(fingerprint), let newest = history.newest, line.firstSeen.id < newest.id else {
            return (true, "new: not in any earlier run of the history")
        }
        return (false, "seen before: in \(line.runs) of the last \(runs(line.ofRuns)) since \(describe(line.firstSeen))")
    }
}
