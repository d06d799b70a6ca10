import UIKitStandIn

/// A coordinator in the ADCoordinator style, written as a library ships it: a tree of children with weak parents,
/// where a child's place in the tree can follow the lifetime of its screen.
open class Coordinator {
    public private(set) var children: [Coordinator] = []
    public private(set) weak var parent: Coordinator?

    public init() {}

    /// Makes `child` a child of this coordinator; a coordinator has one parent, so adding it here moves it.
    open func addChild(_ child: Coordinator) {
        child.parent?.removeChild(child)
        children.append(child)
        child.parent = self
    }

    /// Lets go of `child`.
    open func removeChild(_ child: Coordinator) {
        guard let index = children.firstIndex(where: { $0 === child }) else { return }
        children.remove(at: index)
        child.parent = nil
    }

    /// Leaves the parent, which usually frees this coordinator.
    public func removeFromParent() {
        parent?.removeChild(self)
    }

    /// Ties this coordinator's place in the tree to `screen`: when the screen deallocates, however it was dismissed,
    /// the coordinator leaves its parent.
    public func bindToLifecycle(of screen: ViewController) {
        screen.attach(LifecycleToken { [weak self] in self?.removeFromParent() })
    }
}

/// Rides on a screen and fires when the screen deallocates.
final class LifecycleToken {
    private let onDeallocation: () -> Void

    init(_ onDeallocation: @escaping () -> Void) {
        self.onDeallocation = onDeallocation
    }

    deinit {
        onDeallocation()
    }
}
