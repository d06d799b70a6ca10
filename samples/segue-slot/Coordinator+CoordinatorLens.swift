import CoordinatorTrace
import UIKitStandIn

// The instrumentation adapter, the only file that knows about CoordinatorLens: each slot's `didSet` calls
// `traceSlot`, and each child binds itself to its screen.
extension Coordinator {
    /// Reports this coordinator as the root of the tree.
    func traceAsRoot() {
        CoordinatorTrace.added(self, to: nil)
    }

    /// Reports a slot of this coordinator changing occupant: the old child is detached, the new one attached.
    func traceSlot(
        from old: (any Coordinator)?, to new: (any Coordinator)?,
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function
    ) {
        if let old, old !== new { CoordinatorTrace.removed(old, from: self, file: file, line: line, function: function) }
        if let new, old !== new { CoordinatorTrace.added(new, to: self, file: file, line: line, function: function) }
    }

    /// Binds this coordinator to its screen.
    func traceShows(_ screen: ViewController) {
        CoordinatorTrace.bind(self, to: screen)
    }
}
