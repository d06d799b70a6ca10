import CoordinatorLens

/// Builds a session from events with times, numbering seq and lines as a recording would.
struct Script {
    private(set) var records: [EventRecord] = []

    mutating func at(_ time: Double, _ event: Event) {
        records.append(EventRecord(seq: records.count + 1, time: time, event: event, line: records.count + 2))
    }

    func tree() -> SessionTree {
        var tree = SessionTree(header: SessionHeader(app: "Test", run: "run-1"))
        records.forEach { tree.apply($0) }
        return tree
    }

    func snapshot(at time: Double? = nil, grace: Double = 2) -> Snapshot {
        tree().snapshot(at: time, grace: grace)
    }
}

extension Snapshot {
    func verdict(_ id: CoordinatorID) -> Verdict? { node(id)?.verdict }
}
