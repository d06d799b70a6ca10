/// The retained coordinators one cause keeps: those its suspect references hold, and those held only through one of
/// them, which fixing the cause frees too. Seven coordinators kept by one cycle are one group, not seven findings.
public struct CauseGroup: Hashable, Sendable {
    /// A retained coordinator held only through another leak.
    public struct HeldThrough: Hashable, Sendable {
        /// The coordinator.
        public var id: CoordinatorID
        /// The retained coordinator its trace reaches first (itself perhaps held through another).
        public var through: CoordinatorID

        /// `id`, held through `through`.
        package init(id: CoordinatorID, through: CoordinatorID) {
            self.id = id
            self.through = through
        }
    }

    /// What keeps them.
    public var cause: LeakCause
    /// The retained coordinators the cause holds itself, in the order they were first added.
    public var ids: [CoordinatorID]
    /// The retained coordinators held only through one of `ids` (or through those), in the order they were first added.
    public var heldThrough: [HeldThrough]

    /// How many coordinators the cause keeps.
    public var count: Int { ids.count + heldThrough.count }

    /// Every coordinator it keeps: `ids`, then `heldThrough`.
    public var allIDs: [CoordinatorID] { ids + heldThrough.map(\.id) }

    /// `keeps 7 coordinators (1 itself, 6 through it)`, or `keeps ShareCoordinator#7` alone.
    public func keepsText(in snapshot: Snapshot) -> String {
        guard count > 1 else { return "keeps " + (snapshot.node(ids[0]).map { "\($0.type)#\($0.id)" } ?? "#\(ids[0])") }
        let split = heldThrough.isEmpty ? "" : " (\(ids.count) directly, \(heldThrough.count) held through \(ids.count == 1 ? "it" : "them"))"
        return "keeps \(NumberText.grouped(count)) coordinators" + split
    }
}

extension Snapshot {
    /// The retained coordinators grouped by cause, from `heldBy` (the snapshot's own when nil): the biggest group
    /// first, ties in the order found. A leak held only through another sits in that one's group; the counts add up to
    /// `retained.count`.
    public func causeGroups(heldBy: [CoordinatorID: HeldBy]? = nil) -> [CauseGroup] {
        let found = heldBy ?? self.heldBy
        var groups: [CauseGroup] = []
        var groupOf: [LeakCause: Int] = [:]
        // The tree's words are the same for every leak of one type, kind and holder type: worked out once each (a
        // 100,000-event check has thousands of leaks and, without the search, no other cause).
        var treeGroupOf: [TreeReason: Int] = [:]
        // By position, not in a dictionary: one slot per node costs less than a hashed insert per leak.
        var ownGroup = [Int](repeating: -1, count: nodes.count)
        var heldThrough: [(id: CoordinatorID, through: CoordinatorID)] = []
        func group(of cause: LeakCause) -> Int {
            if let number = groupOf[cause] { return number }
            groups.append(CauseGroup(cause: cause, ids: [], heldThrough: []))
            groupOf[cause] = groups.count - 1
            return groups.count - 1
        }
        func treeGroup(at index: Int) -> Int {
            let holder = (nodes[index].parent ?? nodes[index].removedFrom).flatMap { position(of: $0) }.map { nodes[$0].type }
            let reason = TreeReason(type: nodes[index].type, kind: nodes[index].leakReasonKind, holder: holder)
            if let number = treeGroupOf[reason] { return number }
            let number = group(of: LeakCause(treeReason: reason))
            treeGroupOf[reason] = number
            return number
        }
        for index in nodes.indices where nodes[index].verdict == .retained {
            let id = nodes[index].id
            if let held = found[id], let trace = LeakTrace(held, of: id, in: self) {
                if let through = trace.through {
                    heldThrough.append((id, through))
                } else {
                    let number = group(of: LeakCause(trace: trace, held: held))
                    ownGroup[index] = number
                    groups[number].ids.append(id)
                }
                continue
            }
            // No path found: a child of a leaked parent, or a watched object of a leaked owner, goes with that leak.
            let kind = nodes[index].leakReasonKind
            if kind == .stillChild || kind == .keptWithOwner, let parent = nodes[index].parent, let at = position(of: parent),
                nodes[at].verdict == .retained
            {
                heldThrough.append((id, parent))
            } else {
                let number = treeGroup(at: index)
                ownGroup[index] = number
                groups[number].ids.append(id)
            }
        }
        func own(_ id: CoordinatorID) -> Int? {
            position(of: id).map { ownGroup[$0] }.flatMap { $0 >= 0 ? $0 : nil }
        }
        // Each one held through another goes with the leak its chain ends at; a loop of leaks each held through the
        // next (which no real trace makes) keeps the tree's words for each. Every link a walk passes keeps the group it
        // ended in, so a chain 20,000 deep costs 20,000 steps, not 200 million. Only an end is kept: a link's group
        // never changes once found (nothing on a chain that ends in a group gets the tree's words), while a walk that
        // ended in none may end elsewhere once a loop's member has its own.
        let throughOf = Dictionary(heldThrough.map { ($0.id, $0.through) }, uniquingKeysWith: { first, _ in first })
        var endsIn: [CoordinatorID: Int] = [:]
        func chainGroup(from start: CoordinatorID) -> Int? {
            var at = start
            var passed: [CoordinatorID] = []
            var steps = 0
            while endsIn[at] == nil, own(at) == nil, let next = throughOf[at], steps <= throughOf.count {
                passed.append(at)
                (at, steps) = (next, steps + 1)
            }
            guard let number = endsIn[at] ?? own(at) else { return nil }
            for link in passed { endsIn[link] = number }
            return number
        }
        for (id, through) in heldThrough {
            if let number = chainGroup(from: through) {
                groups[number].heldThrough.append(CauseGroup.HeldThrough(id: id, through: through))
            } else if let index = position(of: id) {
                let number = treeGroup(at: index)
                ownGroup[index] = number
                groups[number].ids.append(id)
            }
        }
        return groups.enumerated().sorted { a, b in
            if a.element.count != b.element.count { return a.element.count > b.element.count }
            return a.offset < b.offset
        }.map(\.element)
    }
}

/// What the tree says keeps a leak no search found a holder for: its type, its reason's kind and its holder's type.
struct TreeReason: Hashable {
    var type: String
    var kind: RetentionKind
    var holder: String?
}
