import CoordinatorLens

/// Files that hold several runs of the same app: a hook that appended a rerun, or files put together. Every run is
/// judged on its own, which keeps an old leaky run of an appended file sink failing a fixed build; the note names the
/// runs and says what to do. A `listen --record` file (its session lines say `"recorder":"listen"`) holds many runs by
/// design and gets no note.
enum RepeatedRuns {
    /// One warning line per file and app with more than one run, naming the runs in input order.
    static func warnings(for sessions: [InputSession]) -> [String] {
        var order: [Key] = []
        var runs: [Key: [String]] = [:]
        for session in sessions where session.log.header.recorder != "listen" {
            let key = Key(source: session.source, app: session.log.header.app)
            if runs[key] == nil { order.append(key) }
            runs[key, default: []].append(session.log.header.run)
        }
        return order.compactMap { key in
            guard let list = runs[key], list.count > 1 else { return nil }
            return "note: \(key.source) holds \(list.count) runs of \(TextSanitizer.visible(key.app)) (\(list.joined(separator: ", "))), each judged "
                + "on its own: if several launches appended to one file sink, the older runs are judged too; give each "
                + "launch its own file, or pick one with --session \(list.last!)"
        }
    }

    private struct Key: Hashable {
        var source: String
        var app: String
    }
}
