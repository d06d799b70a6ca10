import CoordinatorTrace
import UIKitStandIn

// The instrumentation adapter, a mixin on the protocols and the only file that knows about CoordinatorLens. The tree
// is built at init and never changes, so one walk after `start()` reports all of it, every event at the line that
// asked for the walk (its call site passed down the walk, all four parts), never this file.
extension Coordinator {
    /// Reports this coordinator under `parent` (nil: the root), binds it to the container it drives, and does the same
    /// for its children.
    func traceTree(
        under parent: (any Coordinator)? = nil,
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function, filePath: StaticString = #filePath
    ) {
        CoordinatorTrace.added(self, to: parent, file: file, line: line, function: function, filePath: filePath)
        if let screen = drivenScreen {
            CoordinatorTrace.bind(self, to: screen, file: file, line: line, function: function, filePath: filePath)
        }
        for child in childCoordinators {
            child.traceTree(under: self, file: file, line: line, function: function, filePath: filePath)
        }
    }

    private var drivenScreen: ViewController? {
        if let navigation = self as? any NavigationCoordinator { return navigation.navigationController }
        if let tabs = self as? any TabBarCoordinator { return tabs.tabBarController }
        return nil
    }
}
