import CoordinatorLens

/// The one-line status `listen` prints for a session; text from the network goes through `TextSanitizer.visible(_:)`.
enum StatusLine {
    static let maxAppCharacters = 60
    /// Run ids up to this long are shown whole (the hook's are UUIDs, 36 characters).
    static let maxRunCharacters = 40

    static func describe(_ live: LiveSnapshot) -> String {
        let snapshot = live.snapshot
        let counts = snapshot.counts
        let verdicts = Verdict.allCases.compactMap { verdict in counts[verdict].map { "\($0) \(verdict.rawValue)" } }
        let state = snapshot.ended ? "ended" : live.connected ? "live" : "disconnected"
        var line =
            "\(name(snapshot.app)) \(run(snapshot.run)) [\(state)] \(live.events) events, "
            + "\(snapshot.nodes.count) coordinators"
        if !verdicts.isEmpty { line += ": " + verdicts.joined(separator: ", ") }
        if !snapshot.warnings.isEmpty { line += ", \(snapshot.warnings.count) warnings" }
        if live.unreadableLines > 0 { line += ", \(live.unreadableLines) unreadable lines" }
        return line
    }

    /// A session's app and run for a one-off message, such as its eviction.
    static func name(app: String, run: String) -> String {
        "\(name(app)) \(self.run(run))"
    }

    /// The whole run id, or for a longer one its first 32 characters and 8 hex digits of the hash its picture's file
    /// name carries: ids that share a prefix (`crowd-174`, `crowd-175`) never print alike.
    static func run(_ run: String) -> String {
        guard run.count > maxRunCharacters else { return TextSanitizer.visible(run) }
        return TextSanitizer.visible(String(run.prefix(32))) + "…" + FileName.hash(run).prefix(8)
    }

    private static func name(_ app: String) -> String {
        app.count > maxAppCharacters ? TextSanitizer.visible(String(app.prefix(maxAppCharacters))) + "…" : TextSanitizer.visible(app)
    }
}
