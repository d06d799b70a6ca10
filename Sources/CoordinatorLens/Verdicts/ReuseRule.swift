/// The reuse rule: a type the app keeps for reuse by design (`AliveLimit.Scope.reuse`) may have up to its count of
/// done coordinators that their parent still holds; those are kept, judged alive. Beyond the count the newest added
/// are kept and the older ones keep their verdict (retained once the grace period is over), with a reason that says
/// the reuse count was passed.
///
/// Only a coordinator its living parent still holds can be kept: one that is detached or outlived its parent is held by
/// something the app did not mean to keep it in.
enum ReuseRule {
    static func apply(_ limits: [AliveLimit], to nodes: inout [SnapshotNode], at time: Double) {
        let reusable = limits.filter { $0.scope == .reuse }
        guard !reusable.isEmpty else { return }
        let countOf = Dictionary(reusable.map { ($0.type, $0.maximum) }) { _, latest in latest }
        var positionByID: [CoordinatorID: Int] = [:]
        for position in nodes.indices { positionByID[nodes[position].id] = position }
        // Held candidates of each reusable type, in the order they were first added.
        var held: [String: [Int]] = [:]
        for position in nodes.indices {
            guard countOf[nodes[position].type] != nil, nodes[position].deinitAt == nil, nodes[position].doneAt != nil,
                nodes[position].verdict == .retained || nodes[position].verdict == .pending,
                let parent = nodes[position].parent, let parentPosition = positionByID[parent],
                nodes[parentPosition].deinitAt == nil
            else { continue }
            held[nodes[position].type, default: []].append(position)
        }
        for (type, positions) in held {
            let limit = countOf[type]!
            let keptPositions = positions.suffix(limit)
            for position in keptPositions {
                let parent = nodes[positionByID[nodes[position].parent!]!]
                let kept = KeptForReuse(limit: limit, parentType: parent.type, parentID: parent.id, doneAt: nodes[position].doneAt!)
                nodes[position] = nodes[position].kept(kept)
            }
            for position in positions.dropLast(limit) where nodes[position].verdict == .retained {
                let reason =
                    (nodes[position].reason ?? "")
                    + "; \(positions.count) \(type) are held after they were done where \(limit) kept for reuse is declared, "
                    + "and it is not among the newest"
                nodes[position] = nodes[position].withReason(reason)
            }
        }
    }
}
