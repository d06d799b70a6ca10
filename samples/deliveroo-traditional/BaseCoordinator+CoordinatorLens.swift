import CoordinatorTrace
import UIKitStandIn

// The instrumentation adapter: the only file of the app that knows about CoordinatorLens. `BaseCoordinator` calls
// it from store(coordinator:), free(coordinator:) and where it shows a screen, and passes on its caller's call site
// (all four parts: a `filePath` left behind would pair the caller's line with this file's path), so each event names
// the line of the app that did it, never this file.
extension BaseCoordinator {
    /// Reports this coordinator as the root of the tree.
    func traceAsRoot(
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function, filePath: StaticString = #filePath
    ) {
        CoordinatorTrace.added(self, to: nil, file: file, line: line, function: function, filePath: filePath)
    }

    /// Reports a stored child at the call site of `store(coordinator:)`, which is what a leak report should name.
    func traceStored(_ child: BaseCoordinator, file: StaticString, line: UInt, function: StaticString, filePath: StaticString) {
        CoordinatorTrace.added(child, to: self, file: file, line: line, function: function, filePath: filePath)
    }

    /// Reports a freed child at the call site of `free(coordinator:)`.
    func traceFreed(_ child: BaseCoordinator, file: StaticString, line: UInt, function: StaticString, filePath: StaticString) {
        CoordinatorTrace.removed(child, from: self, file: file, line: line, function: function, filePath: filePath)
    }

    /// Binds this coordinator to its screen at the line that showed it: when the screen deallocates, the coordinator
    /// is done.
    func traceShows(_ screen: ViewController, file: StaticString, line: UInt, function: StaticString, filePath: StaticString) {
        CoordinatorTrace.bind(self, to: screen, file: file, line: line, function: function, filePath: filePath)
    }
}
