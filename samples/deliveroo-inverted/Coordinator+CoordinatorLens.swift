import CoordinatorTrace
import UIKitStandIn

// The instrumentation adapter, the only file that knows about CoordinatorLens. With no children arrays there is no
// add or remove to hook: the tree records which flow started which, and each flow's first screen says when it is done.
// Both calls take their caller's call site, all four parts, so each event names the app's line, never this file.
extension Coordinator {
    /// Reports this flow as started by `parent` (nil: the root), then starts it.
    func start(
        from parent: (any Coordinator)?,
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function, filePath: StaticString = #filePath
    ) {
        CoordinatorTrace.added(self, to: parent, file: file, line: line, function: function, filePath: filePath)
        start()
    }

    /// Pushes the flow's first screen and binds this coordinator to it.
    func show(
        _ screen: ViewController, on navigation: NavigationController,
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function, filePath: StaticString = #filePath
    ) {
        navigation.push(screen)
        CoordinatorTrace.bind(self, to: screen, file: file, line: line, function: function, filePath: filePath)
    }
}
