/// A weak handle on a coordinator's screen, so the screen's deallocation can count as the coordinator's dismissal
/// without keeping the screen alive. Its address also keys the screen's deallocation probe on Apple platforms.
final class BoundScreen: @unchecked Sendable {
    weak var object: AnyObject?
    let coordinator: TrackedCoordinator
    /// The screen's address when it was bound, the key `screenLeft` finds it by.
    let key: ObjectIdentifier
    /// Its index in `ObjectRegistry.watchedScreens` while it is its coordinator's current screen; -1 otherwise.
    var slot = -1

    init(_ object: AnyObject, of coordinator: TrackedCoordinator) {
        self.object = object
        self.coordinator = coordinator
        self.key = ObjectIdentifier(object)
    }
}
