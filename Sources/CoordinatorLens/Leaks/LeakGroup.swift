/// Retained coordinators that share a fingerprint (type path and reason kind, as `diff` matches them): one line of a
/// leak list, however many times the flow leaked.
package struct LeakGroup: Hashable, Sendable {
    /// What the leaks have in common.
    package var fingerprint: LeakFingerprint
    /// The retained coordinators with it, in the order they were first added.
    package var ids: [CoordinatorID]
}

extension Snapshot {
    /// The retained coordinators grouped by fingerprint, the biggest group first (ties in fingerprint order); the
    /// counts add up to `retained.count`.
    package var leakGroups: [LeakGroup] {
        var groupOf: [LeakFingerprint: Int] = [:]
        var groups: [LeakGroup] = []
        for (position, fingerprint) in LeakSummary.fingerprints(of: self) {
            if let number = groupOf[fingerprint] {
                groups[number].ids.append(nodes[position].id)
            } else {
                groupOf[fingerprint] = groups.count
                groups.append(LeakGroup(fingerprint: fingerprint, ids: [nodes[position].id]))
            }
        }
        return groups.sorted { $0.ids.count != $1.ids.count ? $0.ids.count > $1.ids.count : $0.fingerprint < $1.fingerprint }
    }
}
