/// A named checkpoint in a session.
public struct Mark: Hashable, Sendable, Codable {
    /// The label the producer gave the checkpoint.
    public var label: String
    /// The `seq` of the `mark` event.
    public var seq: Int
    /// Seconds since the session started, when the mark was recorded.
    public var time: Double
}

/// One session's coordinator tree, built by applying its events in order.
///
/// Every event is applied so that the tree stays a forest: an event that would break it (a cycle, a remove from the
/// wrong parent, an unknown id) is reported as a diagnostic and changes nothing.
public struct SessionTree: Sendable {
    /// The session line this tree belongs to.
    public private(set) var header: SessionHeader
    /// Problems so far, in the order found: reported lines and events that broke the tree's rules.
    public private(set) var diagnostics: [Diagnostic] = []
    /// Every mark applied, in stream order.
    public private(set) var marks: [Mark] = []
    /// The `t` of the latest event applied.
    public private(set) var lastTime: Double = 0
    /// The highest `seq` applied; nil before the first event.
    public private(set) var lastSeq: Int?
    /// Whether an `end` event arrived.
    public private(set) var ended = false
    /// Events applied, including those that changed nothing and only produced a diagnostic.
    public private(set) var eventCount = 0

    private var coordinators: [Coordinator] = []
    private var indexByID = CoordinatorIndex()
    private var rootIDs: [CoordinatorID] = []

    /// An empty tree for the session `header` opens.
    public init(header: SessionHeader) {
        self.header = header
    }

    /// Coordinators in the order they were first added.
    public var all: [Coordinator] { coordinators }

    /// The coordinators attached to no parent, in the order they became roots.
    public var roots: [CoordinatorID] { rootIDs }

    /// The coordinator with this id; nil when the session never added it.
    public subscript(id: CoordinatorID) -> Coordinator? {
        indexByID[id].map { coordinators[$0] }
    }

    /// Records a problem found outside the tree's own rules, such as a malformed line.
    public mutating func report(_ diagnostic: Diagnostic) {
        diagnostics.append(diagnostic)
    }

    /// Applies one event; problems become diagnostics naming the record's line.
    public mutating func apply(_ record: EventRecord) {
        eventCount += 1
        checkSequence(record)
        if ended, record.event != .end {
            warn(record, "\(record.event.kindName) after the session's end")
        }
        lastTime = Swift.max(lastTime, record.time)
        switch record.event {
        case .add(let id, let type, let parent): add(id, type: type, parent: parent, record)
        case .remove(let id, let parent): remove(id, from: parent, record)
        case .bind(let id, let screen):
            guard let index = known(id, record, "bind") else { return }
            coordinators[index].screen = screen
            coordinators[index].boundSite = record.site
        case .dismiss(let id):
            guard let index = known(id, record, "dismiss") else { return }
            if coordinators[index].dismissedAt == nil {
                coordinators[index].dismissedAt = record.time
                coordinators[index].dismissedSite = record.site
            }
        case .deinitialized(let id): deinitialize(id, record)
        case .mark(let label): marks.append(Mark(label: label, seq: record.seq, time: record.time))
        case .dropped(let count):
            if count > 0 { warn(record, "the hook dropped \(count) event\(count == 1 ? "" : "s"): the tree may be incomplete") }
        case .heartbeat: break
        case .end: ended = true
        case .unknown(let kind): warn(record, "unknown event kind \"\(kind)\" ignored")
        }
    }

    private mutating func checkSequence(_ record: EventRecord) {
        defer { lastSeq = Swift.max(lastSeq ?? record.seq, record.seq) }
        let expected = (lastSeq ?? 0) + 1
        if record.seq > expected {
            let lost = record.seq - expected
            if case .dropped(let count) = record.event, count == lost { return }
            warn(record, "seq jumped from \(expected - 1) to \(record.seq): \(lost) event\(lost == 1 ? "" : "s") lost")
        } else if record.seq < expected {
            warn(record, "seq \(record.seq) out of order (after \(expected - 1))")
        }
    }

    private mutating func add(_ id: CoordinatorID, type: String, parent: CoordinatorID?, _ record: EventRecord) {
        var parentIndex: Int?
        if let parent {
            if parent == id {
                warn(record, "add of \(type)#\(id) under itself: parent cycle ignored")
                return
            }
            if let index = indexByID[parent] {
                parentIndex = index
            } else {
                warn(record, "add of \(type)#\(id) under unknown parent \(parent): kept as a root")
            }
        }
        guard let index = indexByID[id] else {
            coordinators.append(Coordinator(id: id, type: type, parent: nil, addedAt: record.time, addedSite: record.site))
            let index = coordinators.count - 1
            indexByID[id] = index
            attach(index, to: parentIndex, record)
            return
        }
        let existing = coordinators[index]
        if existing.deinitAt != nil {
            warn(record, "add of \(existing.type)#\(id), which already deinited: ids are never reused")
            return
        }
        if let parentIndex, isAncestor(index, of: parentIndex) {
            let parentName = name(of: parentIndex)
            warn(record, "moving \(existing.type)#\(id) under \(parentName) would make a parent cycle: ignored")
            return
        }
        detach(index)
        coordinators[index].removedAt = nil
        coordinators[index].removedFrom = nil
        coordinators[index].removedSite = nil
        coordinators[index].orphanedAt = nil
        attach(index, to: parentIndex, record)
    }

    private mutating func attach(_ index: Int, to parentIndex: Int?, _ record: EventRecord) {
        let id = coordinators[index].id
        guard let parentIndex else {
            coordinators[index].parent = nil
            rootIDs.append(id)
            return
        }
        coordinators[index].parent = coordinators[parentIndex].id
        coordinators[parentIndex].children.append(id)
        if coordinators[parentIndex].deinitAt != nil {
            warn(record, "add of \(name(of: index)) under \(name(of: parentIndex)), which already deinited")
            coordinators[index].orphanedAt = record.time
        }
    }

    /// Takes a coordinator out of its parent's children (or the roots) without judging it.
    private mutating func detach(_ index: Int) {
        let id = coordinators[index].id
        if let parent = coordinators[index].parent, let parentIndex = indexByID[parent] {
            if let position = coordinators[parentIndex].children.lastIndex(of: id) {
                coordinators[parentIndex].children.remove(at: position)
            }
        } else if let position = rootIDs.lastIndex(of: id) {
            rootIDs.remove(at: position)
        }
        coordinators[index].parent = nil
    }

    private func isAncestor(_ candidate: Int, of index: Int) -> Bool {
        var current: Int? = index
        var steps = 0
        while let at = current, steps <= coordinators.count {
            if at == candidate { return true }
            current = coordinators[at].parent.flatMap { indexByID[$0] }
            steps += 1
        }
        return false
    }

    private mutating func remove(_ id: CoordinatorID, from parent: CoordinatorID?, _ record: EventRecord) {
        guard let index = known(id, record, "remove") else { return }
        let coordinator = coordinators[index]
        guard let current = coordinator.parent else {
            let from = parent.map { " from \(nameOrID($0))" } ?? ""
            warn(record, "remove of \(coordinator.type)#\(id)\(from), which is not attached to any parent")
            return
        }
        if let parent, parent != current {
            warn(record, "remove of \(coordinator.type)#\(id) from \(nameOrID(parent)), which does not hold it (its parent is \(nameOrID(current)))")
            return
        }
        detach(index)
        rootIDs.append(id)
        coordinators[index].removedFrom = current
        coordinators[index].removedSite = record.site
        if coordinators[index].removedAt == nil { coordinators[index].removedAt = record.time }
    }

    private mutating func deinitialize(_ id: CoordinatorID, _ record: EventRecord) {
        guard let index = known(id, record, "deinit") else { return }
        if coordinators[index].deinitAt != nil {
            warn(record, "second deinit of \(name(of: index)) ignored")
            return
        }
        coordinators[index].deinitAt = record.time
        for child in coordinators[index].children {
            guard let childIndex = indexByID[child] else { continue }
            if coordinators[childIndex].deinitAt == nil, coordinators[childIndex].orphanedAt == nil {
                coordinators[childIndex].orphanedAt = record.time
            }
        }
    }

    private mutating func known(_ id: CoordinatorID, _ record: EventRecord, _ kind: String) -> Int? {
        if let index = indexByID[id] { return index }
        warn(record, "\(kind) of unknown id \(id)")
        return nil
    }

    private func name(of index: Int) -> String {
        "\(coordinators[index].type)#\(coordinators[index].id)"
    }

    private func nameOrID(_ id: CoordinatorID) -> String {
        indexByID[id].map(name(of:)) ?? "unknown id \(id)"
    }

    private mutating func warn(_ record: EventRecord, _ message: String) {
        diagnostics.append(Diagnostic(line: record.line, message: message))
    }
}

extension Event {
    /// The wire name of the event's kind.
    public var kindName: String {
        switch self {
        case .add: "add"
        case .remove: "remove"
        case .bind: "bind"
        case .dismiss: "dismiss"
        case .deinitialized: "deinit"
        case .mark: "mark"
        case .dropped: "dropped"
        case .heartbeat: "heartbeat"
        case .end: "end"
        case .unknown(let kind): kind
        }
    }
}
