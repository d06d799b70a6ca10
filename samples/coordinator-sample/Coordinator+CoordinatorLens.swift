import CoordinatorTrace
import UIKitStandIn

// The instrumentation adapter, a mixin on the protocols and the only file that knows about CoordinatorLens. The tree
// is built at init and never changes, so one walk after `start()` reports all of it.
extension Coordinator {
    /// Reports this coordinator under `parent` (nil: the root), binds it to the container it drives, and does the same
    /// for its children.
    func traceTree(under parent: (any Coordinator)? = nil) {
        CoordinatorTrace.added(self, to: parent)
        if let screen = drivenScreen { CoordinatorTrace.bind(self, to: screen) }
        for child in childCoordinators { child.traceTree(under: self) }
    }

    private var drivenScreen: ViewController? {
        if let navigation = self as? any NavigationCoordinator { return navigation.navigationController }
        if let tabs = self as? any TabBarCoordinator { return tabs.tabBarController }
        return nil
    }
}
