import CoordinatorTrace
import UIKitStandIn

// The instrumentation adapter: the only file of the app that knows about CoordinatorLens. `BaseCoordinator` calls
// it from store(coordinator:), free(coordinator:) and where it shows a screen.
extension BaseCoordinator {
    /// Reports this coordinator as the root of the tree.
    func traceAsRoot(file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function) {
        CoordinatorTrace.added(self, to: nil, file: file, line: line, function: function)
    }

    /// Reports a stored child at the call site of `store(coordinator:)`, which is what a leak report should name.
    func traceStored(_ child: BaseCoordinator, file: StaticString, line: UInt, function: StaticString) {
        CoordinatorTrace.added(child, to: self, file: file, line: line, function: function)
    }

    /// Reports a freed child.
    func traceFreed(_ child: BaseCoordinator) {
        CoordinatorTrace.removed(child, from: self)
    }

    /// Binds this coordinator to its screen: when the screen deallocates, the coordinator is done.
    func traceShows(_ screen: ViewController) {
        CoordinatorTrace.bind(self, to: screen)
    }
}
