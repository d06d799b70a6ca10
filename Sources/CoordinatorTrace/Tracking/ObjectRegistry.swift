/// The objects a session has seen: coordinators by address with their ids, and the screen each one is bound to.
///
/// Ids come from a counter, never from addresses, which the allocator reuses. A registered address cannot have been
/// reused: on Apple platforms a probe removes the entry as its object deallocates; elsewhere the entry's unowned
/// anchor keeps the memory until a sweep has seen the death and removed it. So a hit is this object, also when it
/// calls the hook from its own `deinit`.
struct ObjectRegistry {
    private(set) var coordinators: [ObjectKey: TrackedCoordinator] = [:]
    /// Each coordinator's current screen by coordinator id; a new bind replaces the old one.
    private(set) var screens: [Int: BoundScreen] = [:]
    /// The same bindings by the screen's address, so a screen that leaves finds its coordinators without a scan.
    private var coordinatorsByScreen: [ObjectKey: [BoundScreen]] = [:]
    /// The same coordinators and current screens in arrays, so a sweep can check them a slice at a time with the lock
    /// released in between (see `SweepCursor`); a removal moves the last entry into the hole.
    private(set) var watchedCoordinators: [TrackedCoordinator] = []
    private(set) var watchedScreens: [BoundScreen] = []
    /// Screens that left with coordinators bound, by address, so one that appears again (a cached flow shown anew)
    /// finds them; pruned of dead screens whenever it doubles, so it stays as small as the screens still alive.
    private var departed: [ObjectKey: [BoundScreen]] = [:]
    private var departedPruneAt = 64
    private var lastID = 0

    /// The coordinator's entry, and whether this call created it.
    mutating func track(_ object: AnyObject) -> (coordinator: TrackedCoordinator, isNew: Bool) {
        let key = ObjectKey(ObjectIdentifier(object))
        if let known = coordinators[key] { return (known, false) }
        lastID += 1
        let tracked = TrackedCoordinator(object, id: lastID)
        coordinators[key] = tracked
        tracked.slot = watchedCoordinators.count
        watchedCoordinators.append(tracked)
        return (tracked, true)
    }

    /// `track`'s entry unretained, for a caller that uses it only while the registry holds it.
    @inline(__always)
    mutating func trackBorrowed(_ object: AnyObject) -> (coordinator: Unmanaged<TrackedCoordinator>, isNew: Bool) {
        let key = ObjectKey(ObjectIdentifier(object))
        if let known = coordinators[key] { return (Unmanaged.passUnretained(known), false) }
        let (tracked, isNew) = track(object)
        return (Unmanaged.passUnretained(tracked), isNew)
    }

    /// Forgets a deallocated coordinator, so its address can take a new id.
    mutating func forget(_ coordinator: TrackedCoordinator) {
        let key = ObjectKey(coordinator.key)
        if coordinators[key] === coordinator { coordinators[key] = nil }
        Self.unwatch(coordinator, in: &watchedCoordinators)
        bind(coordinator.id, to: nil)
    }

    mutating func bind(_ id: Int, to screen: BoundScreen?) {
        let old = screens[id]
        screens[id] = screen
        if let old {
            let key = ObjectKey(old.key)
            coordinatorsByScreen[key]?.removeAll { $0 === old }
            if coordinatorsByScreen[key]?.isEmpty == true { coordinatorsByScreen[key] = nil }
            Self.unwatch(old, in: &watchedScreens)
        }
        if let screen {
            coordinatorsByScreen[ObjectKey(screen.key), default: []].append(screen)
            screen.slot = watchedScreens.count
            watchedScreens.append(screen)
        }
    }

    /// Takes `entry` out of its watched array in O(1): the last entry moves into its slot.
    private static func unwatch<Entry: SweepSlotted>(_ entry: Entry, in watched: inout [Entry]) {
        guard entry.slot >= 0 else { return }
        let last = watched.removeLast()
        if last !== entry {
            last.slot = entry.slot
            watched[entry.slot] = last
        }
        entry.slot = -1
    }

    /// Remembers that `screens` left, bound to their coordinators. The living screens the prune looks at are put in
    /// `carried`, for the caller to let go of once the tracer's lock is released (see `SessionState.retainerPlan`).
    mutating func noteDeparted(_ screens: [BoundScreen], carried: inout [AnyObject]) {
        for screen in screens { departed[ObjectKey(screen.key), default: []].append(screen) }
        guard departed.count >= departedPruneAt else { return }
        // In place, and only the lists that hold a freed screen: rebuilding the table and every list in it was a
        // third of a `screenLeft` call.
        carried.reserveCapacity(departed.count)
        func isFreed(_ screen: BoundScreen) -> Bool {
            guard let object = screen.object else { return true }
            carried.append(object)
            return false
        }
        let stale = departed.compactMap { key, list in list.contains { isFreed($0) } ? key : nil }
        for key in stale {
            departed[key]?.removeAll { isFreed($0) }
            if departed[key]?.isEmpty == true { departed[key] = nil }
        }
        departedPruneAt = Swift.max(64, departed.count * 2)
    }

    /// The coordinators `screen` left with that are still tracked, done and bound to no other screen, forgetting
    /// them: what a reappearance of `screen` brings back.
    mutating func takeDeparted(_ screen: AnyObject) -> [TrackedCoordinator] {
        let key = ObjectKey(ObjectIdentifier(screen))
        guard let list = departed.removeValue(forKey: key) else { return [] }
        return list.compactMap { bound in
            let tracked = bound.coordinator
            guard bound.object === screen, coordinators[ObjectKey(tracked.key)] === tracked, tracked.dismissedAt != 0,
                screens[tracked.id] == nil
            else { return nil }
            return tracked
        }
    }

    /// The current bindings of `screen`: a dead screen whose address was reused is never one of them. (Each weak load
    /// gives `screen`, which the caller holds, or nil: it can never be the last reference to an object.)
    func boundTo(_ screen: AnyObject) -> [BoundScreen] {
        guard let bound = coordinatorsByScreen[ObjectKey(ObjectIdentifier(screen))] else { return [] }
        return bound.filter { $0.object === screen }
    }

    /// Whether `screen` is still its coordinator's screen: a rebound coordinator's old screen no longer counts.
    func isCurrent(_ screen: BoundScreen) -> Bool {
        screens[screen.coordinator.id] === screen
    }

    /// Copies up to `limit` watched entries below `cursor` (screens first, then coordinators) into it, moving it
    /// down, for the cursor to check outside the lock. Entries are taken from the end of each array down: a removal
    /// only ever moves an entry from the end, which was either taken already or is taken again, so a pass misses no
    /// entry that was watched when it began.
    func copySlice(into cursor: inout SweepCursor, limit: Int, checksObjects: Bool) {
        var budget = limit
        cursor.screens = checksObjects ? min(cursor.screens, watchedScreens.count) : 0
        while budget > 0, cursor.screens > 0 {
            cursor.screens -= 1
            budget -= 1
            cursor.screensTaken.append(watchedScreens[cursor.screens])
        }
        cursor.coordinators = min(cursor.coordinators, watchedCoordinators.count)
        while budget > 0, cursor.coordinators > 0 {
            cursor.coordinators -= 1
            budget -= 1
            cursor.coordinatorsTaken.append(watchedCoordinators[cursor.coordinators])
        }
    }
}

/// An object's address as a dictionary key, hashed with one multiplication instead of SipHash: every hook call looks
/// one up under the lock, and addresses come from the allocator, not from an adversary, so flooding is no concern.
struct ObjectKey: Hashable {
    let id: ObjectIdentifier

    init(_ id: ObjectIdentifier) {
        self.id = id
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(id)
    }

    // Fibonacci hashing: the high bits of the product depend on every bit of the address, and Dictionary keeps the
    // low bits of what this returns, so the product is folded down. The seed keeps each dictionary's order its own.
    func _rawHashValue(seed: Int) -> Int {
        let product = UInt(bitPattern: Int(bitPattern: id) ^ seed).multipliedFullWidth(by: 0x9E37_79B9_7F4A_7C15)
        return Int(bitPattern: product.high ^ product.low)
    }
}

/// An entry of one of the registry's watched arrays, knowing its place there (-1: not watched).
protocol SweepSlotted: AnyObject {
    var slot: Int { get set }
}

extension TrackedCoordinator: SweepSlotted {}
extension BoundScreen: SweepSlotted {}
