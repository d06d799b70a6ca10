import CoordinatorTrace
import UIKitStandIn

// The instrumentation adapter, the only file that knows about CoordinatorLens: each slot's `didSet` calls
// `traceSlot`, and each child binds itself to its screen. Every call takes its caller's call site, all four parts, so
// each event names the app's line, never this file.
extension Coordinator {
    /// Reports this coordinator as the root of the tree.
    func traceAsRoot(
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function, filePath: StaticString = #filePath
    ) {
        CoordinatorTrace.added(self, to: nil, file: file, line: line, function: function, filePath: filePath)
    }

    /// Reports a slot of this coordinator changing occupant: the old child is detached, the new one attached. A
    /// `didSet` cannot see who set the slot, so the events name the slot's `didSet`.
    func traceSlot(
        from old: (any Coordinator)?, to new: (any Coordinator)?,
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function, filePath: StaticString = #filePath
    ) {
        if let old, old !== new {
            CoordinatorTrace.removed(old, from: self, file: file, line: line, function: function, filePath: filePath)
        }
        if let new, old !== new {
            CoordinatorTrace.added(new, to: self, file: file, line: line, function: function, filePath: filePath)
        }
    }

    /// Binds this coordinator to its screen.
    func traceShows(
        _ screen: ViewController,
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function, filePath: StaticString = #filePath
    ) {
        CoordinatorTrace.bind(self, to: screen, file: file, line: line, function: function, filePath: filePath)
    }
}
