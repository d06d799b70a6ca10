import CoordinatorLens

/// What `check --history` adds to its report: each checked session's stored number and its leaks marked new or seen
/// before.
struct CheckHistoryMarks {
    struct Leak {
        var fingerprint: String
        var count: Int
        var isNew: Bool
        var note: String
    }

    struct Session {
        var app: String
        var run: String
        var storedAs: Int
        var leaks: [Leak]
    }

    /// The store, as printable (never with a password).
    var store: String
    var sessions: [Session]
    /// The same marks per retained coordinator, for every format's findings.
    var notes: LeakNotes

    /// One block: a line per session, then one per leak fingerprint, new ones first.
    var text: String {
        var lines = ["history \(store):"]
        for session in sessions {
            lines.append("  \(session.app) run \(session.run) stored as #\(session.storedAs)")
            for leak in session.leaks.sorted(by: { $0.isNew != $1.isNew ? $0.isNew : $0.fingerprint < $1.fingerprint }) {
                lines.append("    \(leak.isNew ? "NEW " : "seen") \(leak.fingerprint) ×\(leak.count): \(leak.note)")
            }
        }
        return lines.map(TextSanitizer.visible).joined(separator: "\n")
    }
}
