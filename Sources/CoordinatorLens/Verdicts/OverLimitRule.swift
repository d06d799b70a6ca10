/// The expected-count rule: where more coordinators of a type are alive at once than an `AliveLimit` allows, the
/// newest ones (the ones on screen now) are taken as meant, and every older one still judged `alive` is retained.
///
/// Only `alive` ones change: a coordinator that is already retained keeps its own, more telling reason, and a pending
/// one is still within its grace period.
enum OverLimitRule {
    static func apply(_ limits: [AliveLimit], to nodes: inout [SnapshotNode]) {
        // Reuse declarations say how many done ones may be kept; they limit no living count.
        let limits = limits.filter { $0.scope != .reuse }
        guard !limits.isEmpty else { return }
        let wanted = Set(limits.map(\.type))
        // Positions of the living coordinators of each limited type, in the order they were first added.
        var living: [String: [Int]] = [:]
        for position in nodes.indices where nodes[position].deinitAt == nil && wanted.contains(nodes[position].type) {
            living[nodes[position].type, default: []].append(position)
        }
        var positionByID: [CoordinatorID: Int] = [:]
        for position in nodes.indices { positionByID[nodes[position].id] = position }
        for limit in limits {
            guard let positions = living[limit.type], positions.count > limit.maximum else { continue }
            switch limit.scope {
            case .session:
                flag(positions, limit: limit, parent: nil, in: &nodes)
            case .reuse:
                continue
            case .parent:
                var byParent: [CoordinatorID: [Int]] = [:]
                var parentOrder: [CoordinatorID] = []
                for position in positions {
                    guard let parent = nodes[position].parent else { continue }
                    if byParent[parent] == nil { parentOrder.append(parent) }
                    byParent[parent, default: []].append(position)
                }
                for parent in parentOrder where byParent[parent]!.count > limit.maximum {
                    flag(byParent[parent]!, limit: limit, parent: positionByID[parent].map { nodes[$0] }, in: &nodes)
                }
            }
        }
    }

    private static func flag(_ positions: [Int], limit: AliveLimit, parent: SnapshotNode?, in nodes: inout [SnapshotNode]) {
        let reason = RetentionReason.overLimit(limit: limit, alive: positions.count, parentType: parent?.type, parentID: parent?.id)
        for position in positions.dropLast(limit.maximum) where nodes[position].verdict == .alive {
            nodes[position] = nodes[position].retained(because: reason)
        }
    }
}
