/// What one retainer search needs, gathered in one hold of the tracer's lock: strong references, so nothing it looks
/// at is freed under it, released after the search and outside the lock.
struct RetainerPlan {
    /// The session the results go back to.
    let writer: SessionWriter
    let options: RetainerSearchOptions
    /// Coordinators still alive past their grace period after they were done, each searched once per session.
    var retained: [(object: AnyObject, id: Int)] = []
    /// Living coordinators (not done) and their current screens.
    var roots: [AnyObject] = []
    /// Every coordinator past its grace and still alive, searched now or before: where a search looks last, so one
    /// kept only by another leak says which.
    var leaks: [AnyObject] = []
    /// Every living coordinator's id, to name holders.
    var ids: [ObjectIdentifier: Int] = [:]
    /// Each living coordinator's current screen, with the coordinator's name (`NavigationStackCoordinator#5`): a chain
    /// that starts at a screen says whose it is.
    var screens: [ObjectIdentifier: String] = [:]
    /// When the search must have ended (monotonic nanoseconds).
    var stopAt: UInt64 = .max
    /// Done coordinators still within their grace period: not searched, only held until the lock is released.
    var carried: [AnyObject] = []

    /// Whether no coordinator is newly retained: nothing to search.
    var isEmpty: Bool { retained.isEmpty }

    /// A `notSearched` result for each retained coordinator.
    func notSearched(_ reason: String) -> [RetainerPath] {
        retained.map {
            RetainerPath(coordinator: $0.id, type: Self.name(of: $0.object), outcome: .notSearched, steps: [], visited: 0, reason: reason)
        }
    }

    /// A retained coordinator's type as a `held` line names it.
    static func name(of object: AnyObject) -> String {
        _typeName(type(of: object), qualified: false)
    }
}
