/// What the hook knows of one coordinator: a weak handle to notice its deallocation, and enough of its place in the
/// tree to tell when it is done, so `end()` can wait for the finished ones to be freed.
///
/// Touched only under the tracer's lock. Times are clock readings in nanoseconds; 0 means "not yet".
final class TrackedCoordinator: @unchecked Sendable {
    weak var object: AnyObject?
    /// The coordinator's id in this session, from a counter, never from its address.
    let id: Int
    /// The object's address when it was first seen, the key it is registered under.
    let key: ObjectIdentifier
    #if !canImport(ObjectiveC)
    /// An unowned reference keeps a deallocated object's memory from being freed, so while this box exists no other
    /// object can take the address it is registered under: a registry hit is this object, with no weak load to check.
    private unowned let anchor: AnyObject
    #endif

    /// The coordinator it is attached to now; nil for a root or after a remove.
    var parent: TrackedCoordinator?
    /// When it was last attached: being orphaned cannot start before that.
    var attachedAt: UInt64 = 0
    var dismissedAt: UInt64 = 0
    /// When a remove detached it; an add clears it, as the inspector's rules do.
    var removedAt: UInt64 = 0
    var deinitAt: UInt64 = 0
    /// Not a coordinator but an object handed to `Tracer.watch` to die with `parent`: done when that one is.
    var diesWithParent = false
    /// Its index in `ObjectRegistry.watchedCoordinators`; -1 once forgotten.
    var slot = -1

    init(_ object: AnyObject, id: Int) {
        self.object = object
        #if !canImport(ObjectiveC)
        self.anchor = object
        #endif
        self.id = id
        self.key = ObjectIdentifier(object)
    }

    /// The first moment it was dismissed, removed or orphaned (its parent freed while it was attached), as the
    /// inspector judges "done"; nil while none of these happened.
    var doneAt: UInt64? {
        var done = UInt64.max
        if dismissedAt != 0 { done = min(done, dismissedAt) }
        if removedAt != 0 { done = min(done, removedAt) }
        if let parent, parent.deinitAt != 0 { done = min(done, max(parent.deinitAt, attachedAt)) }
        if diesWithParent, let ownerDone = parent?.doneAt { done = min(done, max(ownerDone, attachedAt)) }
        return done == .max ? nil : done
    }
}
