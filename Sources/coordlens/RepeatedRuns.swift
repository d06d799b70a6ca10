import CoordinatorLens

/// Files that hold several runs of the same app: a hook that appended a rerun, or files put together. Every run is
/// judged on its own, so an old leaky run would keep failing a fixed build; the warning names the runs.
enum RepeatedRuns {
    /// One warning line per file and app with more than one run, naming the runs in input order.
    static func warnings(for sessions: [InputSession]) -> [String] {
        var order: [Key] = []
        var runs: [Key: [String]] = [:]
        for session in sessions {
            let key = Key(source: session.source, app: session.log.header.app)
            if runs[key] == nil { order.append(key) }
            runs[key, default: []].append(session.log.header.run)
        }
        return order.compactMap { key in
            guard let list = runs[key], list.count > 1 else { return nil }
            return "warning: \(key.source) holds \(list.count) runs of \(TextSanitizer.visible(key.app)) (\(list.joined(separator: ", "))); "
                + "each is judged, the older ones too: write one run per file, or pick one with --session \(list.last!)"
        }
    }

    private struct Key: Hashable {
        var source: String
        var app: String
    }
}
