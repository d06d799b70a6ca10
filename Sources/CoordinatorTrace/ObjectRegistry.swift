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
    private var lastID = 0

    /// The coordinator's entry, and whether this call created it.
    mutating func track(_ object: AnyObject) -> (coordinator: TrackedCoordinator, isNew: Bool) {
        let key = ObjectKey(ObjectIdentifier(object))
        if let known = coordinators[key] { return (known, false) }
        lastID += 1
        let tracked = TrackedCoordinator(object, id: lastID)
        coordinators[key] = tracked
        return (tracked, true)
    }

    /// Forgets a deallocated coordinator, so its address can take a new id.
    mutating func forget(_ coordinator: TrackedCoordinator) {
        let key = ObjectKey(coordinator.key)
        if coordinators[key] === coordinator { coordinators[key] = nil }
        bind(coordinator.id, to: nil)
    }

    mutating func bind(_ id: Int, to screen: BoundScreen?) {
        let old = screens[id]
        screens[id] = screen
        if let old {
            let key = ObjectKey(old.key)
            coordinatorsByScreen[key]?.removeAll { $0 === old }
            if coordinatorsByScreen[key]?.isEmpty == true { coordinatorsByScreen[key] = nil }
        }
        if let screen { coordinatorsByScreen[ObjectKey(screen.key), default: []].append(screen) }
    }

    /// The current bindings of `screen`: a dead screen whose address was reused is never one of them.
    func boundTo(_ screen: AnyObject) -> [BoundScreen] {
        guard let bound = coordinatorsByScreen[ObjectKey(ObjectIdentifier(screen))] else { return [] }
        return bound.filter { $0.object === screen }
    }

    /// Whether `screen` is still its coordinator's screen: a rebound coordinator's old screen no longer counts.
    func isCurrent(_ screen: BoundScreen) -> Bool {
        screens[screen.coordinator.id] === screen
    }

    /// The coordinators whose object is gone, by id, for a sweep where no probe reports deaths.
    func deallocatedCoordinators() -> [TrackedCoordinator] {
        var gone: [TrackedCoordinator] = []
        for coordinator in coordinators.values where coordinator.object == nil { gone.append(coordinator) }
        return gone.sorted { $0.id < $1.id }
    }

    /// The current screens that are gone, for the same kind of sweep.
    func deallocatedScreens() -> [BoundScreen] {
        var gone: [BoundScreen] = []
        for screen in screens.values where screen.object == nil { gone.append(screen) }
        return gone.sorted { $0.coordinator.id < $1.coordinator.id }
    }

    /// The latest moment at which a finished, still living coordinator becomes decidable (its done time plus
    /// `grace`); nil when none is waiting to be freed.
    func latestDecision(grace: UInt64) -> UInt64? {
        var latest: UInt64?
        for coordinator in coordinators.values where coordinator.deinitAt == 0 {
            guard let done = coordinator.doneAt else { continue }
            let decided = done &+ grace
            latest = max(latest ?? decided, decided)
        }
        return latest
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
