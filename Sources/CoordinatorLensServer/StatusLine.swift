import CoordinatorLens

/// The one-line status `listen` prints for a session; text from the network goes through `TextSanitizer.visible(_:)`.
enum StatusLine {
    static let maxAppCharacters = 60

    static func describe(_ live: LiveSnapshot) -> String {
        let snapshot = live.snapshot
        let counts = snapshot.counts
        let verdicts = Verdict.allCases.compactMap { verdict in counts[verdict].map { "\($0) \(verdict.rawValue)" } }
        let state = snapshot.ended ? "ended" : live.connected ? "live" : "disconnected"
        var line = "\(name(snapshot.app)) \(TextSanitizer.visible(String(snapshot.run.prefix(8)))) [\(state)] \(live.events) events, "
            + "\(snapshot.nodes.count) coordinators"
        if !verdicts.isEmpty { line += ": " + verdicts.joined(separator: ", ") }
        if !snapshot.warnings.isEmpty { line += ", \(snapshot.warnings.count) warnings" }
        if live.unreadableLines > 0 { line += ", \(live.unreadableLines) unreadable lines" }
        return line
    }

    /// A session's app and run for a one-off message, such as its eviction.
    static func name(app: String, run: String) -> String {
        "\(name(app)) \(TextSanitizer.visible(String(run.prefix(8))))"
    }

    private static func name(_ app: String) -> String {
        app.count > maxAppCharacters ? TextSanitizer.visible(String(app.prefix(maxAppCharacters))) + "…" : TextSanitizer.visible(app)
    }
}
