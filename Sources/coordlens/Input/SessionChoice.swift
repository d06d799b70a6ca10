/// Picks the one session a command works on out of an input's sessions.
enum SessionChoice {
    /// The session `run` names, or the only one; `name` says which input in messages, `hint` how to pick.
    static func pick(from sessions: [InputSession], name: String, run: String?, hint: String = "--session RUN") throws -> InputSession {
        let runs = sessions.map(\.log.header.run).joined(separator: ", ")
        if let run {
            guard let session = sessions.first(where: { $0.log.header.run == run }) else {
                throw UsageFailure(message: "\(name) holds no session \(run); it holds: \(runs.isEmpty ? "none" : runs)")
            }
            return session
        }
        guard let only = sessions.first else { throw UsageFailure(message: "\(name) holds no session") }
        guard sessions.count == 1 else {
            throw UsageFailure(message: "\(name) holds \(sessions.count) sessions; pick one with \(hint): \(runs)")
        }
        return only
    }
}
