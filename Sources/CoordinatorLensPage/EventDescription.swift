import CoordinatorLens

/// One event in words, as the page's time slider says where it stands: `ProductCoordinator#6 dismissed`.
package enum EventDescription {
    /// What `record` did, naming coordinators by type and id as `snapshot` knows them.
    package static func text(of record: EventRecord, in snapshot: Snapshot) -> String {
        func name(_ id: CoordinatorID) -> String {
            snapshot.node(id).map { "\($0.type)#\(id)" } ?? "#\(id)"
        }
        switch record.event {
        case .add(let id, let type, let parent): return "\(type)#\(id) added" + (parent.map { " under \(name($0))" } ?? " as a root")
        case .watch(let id, let type, let owner): return "\(type)#\(id) watched with \(name(owner))"
        case .remove(let id, let parent): return "\(name(id)) removed" + (parent.map { " from \(name($0))" } ?? "")
        case .bind(let id, let screen): return "\(name(id)) bound to \(screen)"
        case .dismiss(let id, let via):
            switch via {
            case .screenLeft: return "\(name(id))'s screen left"
            case .screenFreed: return "\(name(id))'s screen freed"
            case .withOwner: return "\(name(id))'s coordinator done"
            default: return "\(name(id)) dismissed"
            }
        case .deinitialized(let id): return "\(name(id)) deinited"
        case .mark(let label): return "mark “\(label)”"
        case .dropped(let count): return "\(count) events dropped by the hook"
        case .heartbeat: return "heartbeat"
        case .expect(let limit): return "expects \(limit)"
        case .held(let id, _): return "who holds \(name(id)) found"
        case .end: return "session ended"
        case .unknown(let kind): return "unknown event “\(kind)”"
        }
    }

    /// The event numbered `seq` in `log`, looked for from the end, where the present and recent points are.
    package static func record(seq: Int, in log: SessionLog) -> EventRecord? {
        for entry in log.entries.reversed() {
            if case .record(let record) = entry, record.seq == seq { return record }
        }
        return nil
    }
}
