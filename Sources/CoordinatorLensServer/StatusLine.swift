import CoordinatorLens

/// The one-line status `listen` prints for a session.
enum StatusLine {
    static func describe(_ live: LiveSnapshot) -> String {
        let snapshot = live.snapshot
        let counts = snapshot.counts
        let verdicts = Verdict.allCases.compactMap { verdict in counts[verdict].map { "\($0) \(verdict.rawValue)" } }
        let state = snapshot.ended ? "ended" : live.connected ? "live" : "disconnected"
        let shortRun = String(snapshot.run.prefix(8))
        var line = "\(snapshot.app) \(shortRun) [\(state)] \(live.events) events, \(snapshot.nodes.count) coordinators"
        if !verdicts.isEmpty { line += ": " + verdicts.joined(separator: ", ") }
        if !snapshot.warnings.isEmpty { line += ", \(snapshot.warnings.count) warnings" }
        return line
    }
}

/// Turns text from the network into a file name that stays inside its folder.
enum FileName {
    static func safe(_ text: String) -> String {
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.")
        var name = String(text.prefix(80).map { allowed.contains($0) ? $0 : "_" })
        while name.hasPrefix(".") { name = "_" + name.dropFirst() }
        return name.isEmpty ? "session" : name
    }
}
