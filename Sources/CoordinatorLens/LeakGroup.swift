/// Retained coordinators that share a fingerprint (type path and reason kind, as `diff` matches them): one line of a
/// leak list, however many times the flow leaked.
public struct LeakGroup: Hashable, Sendable {
    /// What the leaks have in common.
    public var fingerprint: LeakFingerprint
    /// The retained coordinators with it, in the order they were first added.
    public var ids: [CoordinatorID]
}

extension Snapshot {
    /// The retained coordinators grouped by fingerprint, the biggest group first (ties in fingerprint order); the
    /// counts add up to `retained.count`.
    public var leakGroups: [LeakGroup] {
        guard nodes.contains(where: { $0.verdict == .retained }) else { return [] }
        let index = TypePathIndex(self)
        var typePaths = TypePathInterner()
        var memo = [Int](repeating: -1, count: nodes.count)
        struct Key: Hashable {
            var types: Int
            var reasonKind: RetentionKind
        }
        var groupOf: [Key: Int] = [:]
        var groups: [(key: Key, ids: [CoordinatorID])] = []
        for position in nodes.indices where nodes[position].verdict == .retained {
            let key = Key(types: typePaths.id(of: position, in: index, memo: &memo), reasonKind: nodes[position].leakReasonKind)
            if let number = groupOf[key] {
                groups[number].ids.append(nodes[position].id)
            } else {
                groupOf[key] = groups.count
                groups.append((key, [nodes[position].id]))
            }
        }
        return groups.map { group in
            let (types, omitted) = typePaths.types(of: group.key.types)
            return LeakGroup(
                fingerprint: LeakFingerprint(types: types, omittedSteps: omitted, reasonKind: group.key.reasonKind), ids: group.ids
            )
        }
        .sorted { $0.ids.count != $1.ids.count ? $0.ids.count > $1.ids.count : $0.fingerprint < $1.fingerprint }
    }
}
