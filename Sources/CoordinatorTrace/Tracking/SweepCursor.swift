/// Where a sweep over the watched objects has got to. A sweep copies a slice of them out under the tracer's lock,
/// checks their weak references with the lock released, and reports the dead ones at its next hold of the lock, so
/// no hook call waits for a whole pass however many coordinators are alive, and the sweeper cannot starve the app's
/// threads by taking the lock back at once: it holds the lock only to copy and to report.
struct SweepCursor {
    /// Entries not yet taken are below these indices (see `ObjectRegistry.copySlice`); `Int.max` until the first.
    var screens = Int.max
    var coordinators = Int.max
    /// The slice taken at the last hold of the lock, to check outside it.
    var screensTaken: [BoundScreen] = []
    var coordinatorsTaken: [TrackedCoordinator] = []
    /// Of those, the ones found gone, to report at the next hold of the lock.
    var screensGone: [BoundScreen] = []
    var coordinatorsGone: [TrackedCoordinator] = []
    /// Objects the report under the lock turned strong (a living screen of a coordinator found gone): the sweeper lets
    /// go of them once the lock is released, so no app object's last release, and so its `deinit`, runs under it.
    var carried: [AnyObject] = []
    /// Whether `check` reads the weak references: not where probes report deaths (Apple platforms).
    var checksObjects = true
    /// When set, the pass also finds the latest moment a finished, living coordinator becomes decidable (done plus
    /// this grace), for `end()`.
    var grace: UInt64?
    var latestDecision: UInt64?

    /// Entries taken per hold of the lock: copying one is a retain, a few microseconds for the slice at most.
    static let slice = 64

    init(grace: UInt64? = nil) {
        self.grace = grace
        screensTaken.reserveCapacity(Self.slice)
        coordinatorsTaken.reserveCapacity(Self.slice)
    }

    /// No pass begun yet.
    var isFresh: Bool { screens == .max && coordinators == .max }

    /// Every entry taken and reported.
    var isFinished: Bool {
        screens == 0 && coordinators == 0 && screensTaken.isEmpty && coordinatorsTaken.isEmpty
    }

    /// Outside the lock: finds which of the taken objects are gone. Only the weak references are read here; they are
    /// set once, when an entry is made, and the runtime makes their loads safe against the objects' deallocation.
    mutating func check() {
        guard checksObjects else { return }
        for screen in screensTaken where screen.object == nil { screensGone.append(screen) }
        for coordinator in coordinatorsTaken where coordinator.object == nil { coordinatorsGone.append(coordinator) }
    }
}
