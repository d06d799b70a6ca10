/// A run as the history holds it, for listings: its place in the store and where it came from.
package struct StoredRun: Sendable, Equatable, Codable {
    /// The store's number for it; later runs have larger numbers.
    package var id: Int
    /// When it was stored, ISO 8601 in UTC (`2026-11-23T10:15:00Z`).
    package var recordedAt: String
    /// The app's name.
    package var app: String
    /// The session's run id.
    package var run: String
    /// The commit, when one was given.
    package var commit: String?
    /// The branch, when one was given.
    package var branch: String?
    /// The label, when one was given.
    package var label: String?
    /// How many coordinators it retained.
    package var retained: Int
    /// The type paths it exercised; nil for a run stored before the history kept them (it counts for every path).
    package var paths: Set<String>?

    /// Whether the run created a coordinator on `path`, or cannot tell.
    package func exercised(_ path: String?) -> Bool {
        guard let path, let paths else { return true }
        return paths.contains(path)
    }

    /// The day it was stored, `2026-11-23`.
    package var day: String { String(recordedAt.prefix(10)) }
}

/// One fingerprint's row in one stored run.
package struct StoredLeak: Sendable, Equatable {
    /// The run it belongs to (`StoredRun.id`).
    package var runID: Int
    /// The fingerprint as printed.
    package var fingerprint: String
    /// Retained coordinators with it in that run.
    package var count: Int
    /// The type path it is on; nil for a row stored before the history kept paths.
    package var path: String?
    /// One of them's call site: file, line and function as the hook sent them.
    package var exampleFile: String?
    package var exampleLine: Int?
    package var exampleFunction: String?
}

/// Which stored runs a listing looks at.
package struct HistoryFilter: Sendable, Equatable {
    /// Runs stored at or after this ISO 8601 time or date (`2026-11-03`).
    package var since: String?
    /// Runs of this branch only.
    package var branch: String?
    /// Runs of this app only.
    package var app: String?
    /// Runs stored with this label only.
    package var label: String?
    /// Runs up to and including this one (`StoredRun.id`).
    package var upToRun: Int?

    /// A filter; with nothing given, every run.
    package init(since: String? = nil, branch: String? = nil, app: String? = nil, label: String? = nil, upToRun: Int? = nil) {
        self.since = since
        self.branch = branch
        self.app = app
        self.label = label
        self.upToRun = upToRun
    }

    /// The `WHERE` clause over `runs AS r` with its binds, numbered from `$1`.
    var sql: (clause: String, binds: [HistoryValue]) {
        var conditions: [String] = []
        var binds: [HistoryValue] = []
        func add(_ condition: String, _ value: HistoryValue) {
            binds.append(value)
            conditions.append(condition.replacingOccurrences(of: "?", with: "$\(binds.count)"))
        }
        if let since { add("r.recorded_at >= ?", .text(since)) }
        if let branch { add("r.branch = ?", .text(branch)) }
        if let app { add("r.app = ?", .text(app)) }
        if let label { add("r.label = ?", .text(label)) }
        if let upToRun { add("r.id <= ?", HistoryValue(upToRun)) }
        return (conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND "), binds)
    }
}
