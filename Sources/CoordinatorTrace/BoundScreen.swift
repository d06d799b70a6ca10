/// A weak handle on a coordinator's screen, so the screen's deallocation can count as the coordinator's dismissal
/// without keeping the screen alive. Its address also keys the screen's deallocation probe on Apple platforms.
final class BoundScreen: @unchecked Sendable {
    weak var object: AnyObject?
    let coordinator: TrackedCoordinator

    init(_ object: AnyObject, of coordinator: TrackedCoordinator) {
        self.object = object
        self.coordinator = coordinator
    }
}
