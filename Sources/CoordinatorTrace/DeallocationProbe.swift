#if canImport(ObjectiveC)
import ObjectiveC

/// Rides on an object as an associated object: the runtime releases it right after the object's deinit, which gives
/// the exact moment of deallocation instead of the writer's next poll.
final class DeallocationProbe {
    private let onDeallocation: @Sendable () -> Void

    init(_ onDeallocation: @escaping @Sendable () -> Void) {
        self.onDeallocation = onDeallocation
    }

    deinit {
        onDeallocation()
    }

    /// Attaches a probe to `object`; `key` must be unique per probe on that object and outlive it.
    static func attach(to object: AnyObject, key: UnsafeRawPointer, _ onDeallocation: @escaping @Sendable () -> Void) {
        objc_setAssociatedObject(object, key, DeallocationProbe(onDeallocation), .OBJC_ASSOCIATION_RETAIN)
    }
}
#endif
