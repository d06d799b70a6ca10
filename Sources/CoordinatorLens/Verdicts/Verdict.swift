/// What a coordinator's life looks like at the evaluation time.
public enum Verdict: String, Hashable, Sendable, Codable, CaseIterable {
    /// Not done and not deinited: it is in use.
    case alive
    /// Done, not deinited yet, still within the grace period.
    case pending
    /// Done more than the grace period ago and still not deinited: the leak.
    case retained
    /// Deinited, within the grace period of being done if it was done.
    case released
    /// Deinited, but more than the grace period after it was done.
    case late
}

/// The kind of a retention reason, stable across runs (ids are not): part of a leak's fingerprint.
public enum RetentionKind: String, Hashable, Sendable, Codable, CaseIterable, Comparable, CustomStringConvertible {
    /// Attached under a parent that is still alive, never removed: its place in the tree, whoever holds it (the
    /// retainer search, which only some runs have, changes the reason's words, never the kind).
    case stillChild = "still-child"
    /// Removed (or a root) and still alive: something outside the tree holds it.
    case detached
    /// Its parent deinited while it was attached.
    case outlivedParent = "outlived-parent"
    /// More of its type were alive at once than the app or `--max-alive` allows, and it is not among the newest.
    case overLimit = "over-limit"
    /// A watched object (`Tracer.watch`) whose coordinator deinited while it stayed.
    case outlivedOwner = "outlived-owner"
    /// A watched object whose coordinator is done but still alive, so it stays too.
    case keptWithOwner = "kept-with-owner"

    public static func < (lhs: RetentionKind, rhs: RetentionKind) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The wire spelling, as reports and fingerprints print it.
    public var description: String { rawValue }
}

/// Who still holds a retained coordinator, as far as the tree can tell.
public enum RetentionReason: Hashable, Sendable, Codable {
    /// Never removed from a parent that is still alive.
    case stillChild(parentType: String, parentID: CoordinatorID)
    /// Never removed from a parent that is still alive, which the retainer search found does not hold it: `holder` is
    /// the reference that does (`VaultProcessor.coordinator`), nil when nothing living holds it.
    case attachedOnly(parentType: String, parentID: CoordinatorID, holder: String?)
    /// Removed from `formerParentType#formerParentID` (at `site`), or a root, yet still alive: something outside the
    /// tree holds it.
    case detached(formerParentType: String?, formerParentID: CoordinatorID?, site: CallSite?)
    /// Its parent deinited while it was attached.
    case outlivedParent(parentType: String, parentID: CoordinatorID)
    /// A watched object that should have died with `ownerType#ownerID`, which deinited; `holder` is what the retainer
    /// search found holds it, if it ran.
    case outlivedOwner(ownerType: String, ownerID: CoordinatorID, holder: String?)
    /// A watched object whose coordinator `ownerType#ownerID` is done but still alive.
    case keptWithOwner(ownerType: String, ownerID: CoordinatorID)
    /// One of `alive` coordinators of its type alive at once where `limit` allows fewer; `parentType#parentID` is the
    /// parent the count was taken under, for a per-parent limit.
    case overLimit(limit: AliveLimit, alive: Int, parentType: String?, parentID: CoordinatorID?)

    /// The reason's kind, stable across runs (ids are not), for leak fingerprints.
    public var kind: RetentionKind {
        switch self {
        case .stillChild, .attachedOnly: .stillChild
        case .detached: .detached
        case .outlivedParent: .outlivedParent
        case .outlivedOwner: .outlivedOwner
        case .keptWithOwner: .keptWithOwner
        case .overLimit: .overLimit
        }
    }

    private static let heldElsewhere = "still alive: something else holds it, often a closure or delegate capturing it"

    /// The sentence a report shows.
    public var text: String {
        switch self {
        case .stillChild(let type, let id): "still a child of \(type)#\(id)"
        case .attachedOnly(let type, let id, let holder):
            "attached under \(type)#\(id), "
                + (holder.map { "held by \($0)" } ?? "which does not hold it: nothing the search started from does")
        case .detached(let type, let id, let site):
            if let type, let id {
                "detached from \(type)#\(id)\(site.map { " at \($0.description)" } ?? ""); \(Self.heldElsewhere)"
            } else {
                "a root that is done but still alive; \(Self.heldElsewhere)"
            }
        case .outlivedParent(let type, let id): "outlived its parent \(type)#\(id)"
        case .outlivedOwner(let type, let id, let holder):
            "outlived \(type)#\(id), which it should have died with" + (holder.map { "; held by \($0)" } ?? "")
        case .keptWithOwner(let type, let id): "kept with \(type)#\(id), which is done but still alive"
        case .overLimit(let limit, let alive, let parentType, let parentID):
            "one of \(alive) \(limit.type) alive at once\(parentType.map { " under \($0)#\(parentID!)" } ?? ""), where "
                + (limit.maximum == 0
                    ? "none is expected"
                    : "at most \(limit.maximum) \(limit.maximum == 1 ? "is" : "are") expected and it is not among the newest")
        }
    }
}

/// The verdict rules, in one place (docs/PROTOCOL.md states them in prose).
public enum VerdictRules {
    /// The default grace period in seconds between being done and being deinited.
    public static let defaultGrace: Double = 2

    /// Judges one coordinator at time `evaluatedAt`, given its tree and what the retainer search found holds it
    /// (`heldBy`) for the retention reason.
    package static func verdict(
        for coordinator: Coordinator,
        at evaluatedAt: Double,
        grace: Double,
        heldBy: HeldBy? = nil,
        lookup: (CoordinatorID) -> Coordinator?
    ) -> (Verdict, RetentionReason?) {
        let done = coordinator.doneAt
        if let deinitAt = coordinator.deinitAt {
            if let done, deinitAt - done > grace { return (.late, nil) }
            return (.released, nil)
        }
        guard let done else { return (.alive, nil) }
        if evaluatedAt - done <= grace { return (.pending, nil) }
        guard let parentID = coordinator.parent, let parent = lookup(parentID) else {
            let former = coordinator.removedFrom.flatMap(lookup)
            return (.retained, .detached(formerParentType: former?.type, formerParentID: former?.id, site: coordinator.removedSite))
        }
        if coordinator.diesWithParent {
            guard parent.deinitAt != nil else { return (.retained, .keptWithOwner(ownerType: parent.type, ownerID: parentID)) }
            return (.retained, .outlivedOwner(ownerType: parent.type, ownerID: parentID, holder: heldBy?.holderText))
        }
        if parent.deinitAt != nil {
            return (.retained, .outlivedParent(parentType: parent.type, parentID: parentID))
        }
        // Many designs keep their children elsewhere (processors, stores, view models): saying the parent holds one
        // the search found held by something else sends the reader to the wrong field. "Unreachable" rules out only a
        // parent the search started from, a living one: a finished parent (itself a leak) was not among its roots.
        if let heldBy, heldBy.rulesOut(holder: parentID), heldBy.outcome != .unreachable || parent.doneAt == nil {
            return (.retained, .attachedOnly(parentType: parent.type, parentID: parentID, holder: heldBy.holderText))
        }
        return (.retained, .stillChild(parentType: parent.type, parentID: parentID))
    }
}
