import CoordinatorTrace
import UIKitStandIn

/// The instrumentation adapter. The library's `Coordinator` stays untouched: the app's coordinators inherit from
/// this subclass instead, which reports every change of the tree and every screen a coordinator shows.
///
/// An override cannot see its caller, so the hook records this file as the place children were added and removed;
/// when the base class is your own, give its `addChild` the four call-site parameters (`file`, `line`, `function`,
/// `filePath`) instead (see the Deliveroo traditional sample). The methods of its own take their caller's call site,
/// so their events name the app's line.
open class TracedCoordinator: Coordinator {
    /// Reports this coordinator as the root of the tree.
    public func traceAsRoot(
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function, filePath: StaticString = #filePath
    ) {
        CoordinatorTrace.added(self, to: nil, file: file, line: line, function: function, filePath: filePath)
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
    public func present(
        _ screen: ViewController, over presenter: ViewController,
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function, filePath: StaticString = #filePath
    ) {
        presenter.present(screen)
        CoordinatorTrace.bind(self, to: screen, file: file, line: line, function: function, filePath: filePath)
    }

    /// Pushes `screen` on `navigation` and binds this coordinator to it.
    public func push(
        _ screen: ViewController, on navigation: NavigationController,
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function, filePath: StaticString = #filePath
    ) {
        navigation.push(screen)
        CoordinatorTrace.bind(self, to: screen, file: file, line: line, function: function, filePath: filePath)
    }
}
