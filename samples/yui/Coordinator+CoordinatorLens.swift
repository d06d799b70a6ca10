import CoordinatorTrace
import UIKitStandIn

// The instrumentation adapter, the only file that knows about CoordinatorLens. `Coordinator` calls it from
// addChild, removeChild and where `presentedScreen` is set, with the call site it was given (all four parts), so each
// event names the app's line, never this file. The hook wants a coordinator in the tree before it hears about its
// screen, and in this style a child may present before it is added.
extension Coordinator {
    /// Reports this coordinator as the root of the tree, bound to the screen it presented.
    func traceAsRoot(
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function, filePath: StaticString = #filePath
    ) {
        CoordinatorTrace.added(self, to: nil, file: file, line: line, function: function, filePath: filePath)
        if let presentedScreen {
            CoordinatorTrace.bind(self, to: presentedScreen, file: file, line: line, function: function, filePath: filePath)
        }
    }

    /// Reports an added child at the call site of `addChild`.
    func traceAdded(_ child: Coordinator, file: StaticString, line: UInt, function: StaticString, filePath: StaticString) {
        CoordinatorTrace.added(child, to: self, file: file, line: line, function: function, filePath: filePath)
    }

    /// Reports a removed child at the call site of `removeChild`.
    func traceRemoved(_ child: Coordinator, file: StaticString, line: UInt, function: StaticString, filePath: StaticString) {
        CoordinatorTrace.removed(child, from: self, file: file, line: line, function: function, filePath: filePath)
    }

    /// Binds this coordinator to the screen it presented, so the hook sees the screen go even when no probe does.
    /// A coordinator that starts before it is added has its screen first; the binding waits until it is in the tree.
    func traceShowsIfInTree(
        _ screen: ViewController?, file: StaticString, line: UInt, function: StaticString, filePath: StaticString
    ) {
        guard let screen, parent != nil else { return }
        CoordinatorTrace.bind(self, to: screen, file: file, line: line, function: function, filePath: filePath)
    }
}
