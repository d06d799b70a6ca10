import CoordinatorTrace
import UIKitStandIn

// The instrumentation adapter, the only file that knows about CoordinatorLens. `Coordinator` calls it from
// addChild, removeChild and where `presentedScreen` is set. The hook wants a coordinator in the tree before it hears
// about its screen, and in this style a child may present before it is added.
extension Coordinator {
    /// Reports this coordinator as the root of the tree, bound to the screen it presented.
    func traceAsRoot(file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function) {
        CoordinatorTrace.added(self, to: nil, file: file, line: line, function: function)
        if let presentedScreen { CoordinatorTrace.bind(self, to: presentedScreen) }
    }

    /// Reports an added child at the call site of `addChild`.
    func traceAdded(_ child: Coordinator, file: StaticString, line: UInt, function: StaticString) {
        CoordinatorTrace.added(child, to: self, file: file, line: line, function: function)
    }

    /// Reports a removed child.
    func traceRemoved(_ child: Coordinator) {
        CoordinatorTrace.removed(child, from: self)
    }

    /// Binds this coordinator to the screen it presented, so the hook sees the screen go even when no probe does.
    /// A coordinator that starts before it is added has its screen first; the binding waits until it is in the tree.
    func traceShowsIfInTree(_ screen: ViewController?) {
        guard let screen, parent != nil else { return }
        CoordinatorTrace.bind(self, to: screen)
    }
}
