/// What makes two leaks in different runs the same leak: the retained coordinator's types from the root down and why
/// it is retained. Ids and sibling ordinals are left out, as both shift between runs while the bug stays the same.
public struct LeakFingerprint: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The types from the root down to the retained coordinator.
    public var types: [String]
    /// The retention reason's kind: `still-child`, `detached` or `outlived-parent`.
    public var reasonKind: String

    /// A fingerprint from root-first `types` and a reason kind such as `still-child`.
    public init(types: [String], reasonKind: String) {
        self.types = types
        self.reasonKind = reasonKind
    }

    /// The retained coordinator's own type.
    public var type: String { types.last ?? "" }

    /// `AppCoordinator/HomeCoordinator/YellowCoordinator (still-child)`.
    public var description: String { types.joined(separator: "/") + " (\(reasonKind))" }

    /// Orders by types, root first, then by reason kind: the order leak lists are printed in.
    public static func < (lhs: LeakFingerprint, rhs: LeakFingerprint) -> Bool {
        if lhs.types != rhs.types { return lhs.types.lexicographicallyPrecedes(rhs.types) }
        return lhs.reasonKind < rhs.reasonKind
    }
}

/// How many retained coordinators share one fingerprint.
public struct LeakCount: Hashable, Sendable {
    /// The leak these coordinators share.
    public var fingerprint: LeakFingerprint
    /// How many retained coordinators share it; in a `TreeDiff`, how many more or how many in common, as its list says.
    public var count: Int

    /// `count` retained coordinators with `fingerprint`.
    public init(fingerprint: LeakFingerprint, count: Int) {
        self.fingerprint = fingerprint
        self.count = count
    }
}

extension SnapshotNode {
    /// The retention reason's kind, with a stand-in for retained nodes of snapshots written before kinds existed.
    var leakReasonKind: String { reasonKind ?? "retained" }
}
