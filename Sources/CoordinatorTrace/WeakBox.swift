/// A weak handle on a coordinator or a screen, so the writer can notice its deallocation without keeping it alive.
final class WeakBox: @unchecked Sendable {
    weak var object: AnyObject?
    /// The coordinator's id; for a screen, the id of the coordinator bound to it.
    let id: Int
    /// The object's address when the box was made, the key it is registered under.
    let key: ObjectIdentifier
    /// Set once a probe watches the object, so the writer does not also poll it (Apple platforms only).
    var probed = false
    #if !canImport(ObjectiveC)
    /// An unowned reference keeps a deallocated object's memory from being freed, so while this box exists no other
    /// object can take the address it is registered under: a registry hit is this object, with no weak load to check.
    private unowned let anchor: AnyObject
    #endif

    init(_ object: AnyObject, id: Int) {
        self.object = object
        #if !canImport(ObjectiveC)
        self.anchor = object
        #endif
        self.id = id
        self.key = ObjectIdentifier(object)
    }
}
