import CoordinatorTrace
import UIKitStandIn

/// The instrumentation adapter. The library's `Coordinator` stays untouched: the app's coordinators inherit from
/// this subclass instead, which reports every change of the tree and every screen a coordinator shows.
///
/// An override cannot see its caller, so the hook records this file as the place children were added; when the base
/// class is your own, give its `addChild` `file:`/`line:` defaults instead (see the Deliveroo traditional sample).
open class TracedCoordinator: Coordinator {
    /// Reports this coordinator as the root of the tree.
    public func traceAsRoot() {
        CoordinatorTrace.added(self, to: nil)
    }

    override open func addChild(_ child: Coordinator) {
        super.addChild(child)
        CoordinatorTrace.added(child, to: self)
    }

    override open func removeChild(_ child: Coordinator) {
        let wasChild = child.parent === self
        super.removeChild(child)
        if wasChild { CoordinatorTrace.removed(child, from: self) }
    }

    /// Presents `screen` over `presenter` and binds this coordinator to it. The binding lives here, where the screen
    /// is shown, and not in `bindToLifecycle(of:)`: a forgotten `bindToLifecycle` is exactly the leak to catch.
    public func present(_ screen: ViewController, over presenter: ViewController) {
        presenter.present(screen)
        CoordinatorTrace.bind(self, to: screen)
    }

    /// Pushes `screen` on `navigation` and binds this coordinator to it.
    public func push(_ screen: ViewController, on navigation: NavigationController) {
        navigation.push(screen)
        CoordinatorTrace.bind(self, to: screen)
    }
}
