/// What makes two leaks in different runs the same leak: the retained coordinator's types from the root down and why
/// it is retained. Ids and sibling ordinals are left out, as both shift between runs while the bug stays the same.
public struct LeakFingerprint: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The types from the root down to the retained coordinator; for a deep one (`DeepPath`) the root and the last
    /// steps only, with `omittedSteps` left out after the root.
    public var types: [String]
    /// How many steps of a deep path are left out after its root; 0 when `types` is the whole path.
    public var omittedSteps: Int
    /// The retention reason's kind: `still-child`, `detached` or `outlived-parent`.
    public var reasonKind: RetentionKind

    /// A fingerprint from root-first `types` (with `omittedSteps` left out after the root) and a reason kind such as
    /// `still-child`.
    package init(types: [String], omittedSteps: Int = 0, reasonKind: RetentionKind) {
        self.types = types
        self.omittedSteps = omittedSteps
        self.reasonKind = reasonKind
    }

    /// The retained coordinator's own type.
    public var type: String { types.last ?? "" }

    /// `AppCoordinator/HomeCoordinator/YellowCoordinator (still-child)`; deep: `AppCoordinator/… 9,990 more/…`.
    public var description: String {
        var shown = types
        if omittedSteps > 0, !shown.isEmpty { shown.insert(DeepPath.omission(omittedSteps), at: 1) }
        return shown.joined(separator: "/") + " (\(reasonKind.rawValue))"
    }

    /// Orders by types, root first, then by how many steps were left out, then by reason kind: the order leak lists
    /// are printed in.
    public static func < (lhs: LeakFingerprint, rhs: LeakFingerprint) -> Bool {
        if lhs.types != rhs.types { return lhs.types.lexicographicallyPrecedes(rhs.types) }
        if lhs.omittedSteps != rhs.omittedSteps { return lhs.omittedSteps < rhs.omittedSteps }
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
    package init(fingerprint: LeakFingerprint, count: Int) {
        self.fingerprint = fingerprint
        self.count = count
    }
}

extension SnapshotNode {
    /// The retention reason's kind; a retained node of a snapshot written before kinds existed gets the kind its place
    /// implies (under a parent: still a child; else detached).
    var leakReasonKind: RetentionKind { reasonKind ?? (parent == nil ? .detached : .stillChild) }
}
