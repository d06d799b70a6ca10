import UIKitStandIn

/// A coordinator in Yui's style: when a child is added, a probe token rides on the screen the child presented; the
/// token's deinit calls the child's `didFinish()`, which removes it from its parent.
class Coordinator {
    private(set) var children: [Coordinator] = []
    private(set) weak var parent: Coordinator?

    /// The screen this coordinator presented, set by `start()`.
    weak var presentedScreen: ViewController? {
        // A setter cannot see who set it: the binding names this line.
        didSet { traceShowsIfInTree(presentedScreen, file: #fileID, line: #line, function: #function, filePath: #filePath) }
    }

    /// Presents the coordinator's screen and sets `presentedScreen`.
    func start() {}

    // The methods take their caller's call site and pass it on, so the events name the app's line that added or
    // removed, not this file.

    /// Adds `child` and attaches the probe to its screen. A child that has not started has no screen yet, so no
    /// probe: start first, then add.
    func addChild(
        _ child: Coordinator,
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function, filePath: StaticString = #filePath
    ) {
        children.append(child)
        child.parent = self
        traceAdded(child, file: file, line: line, function: function, filePath: filePath)
        child.traceShowsIfInTree(child.presentedScreen, file: file, line: line, function: function, filePath: filePath)
        child.presentedScreen?.attach(FinishProbe { [weak child] in child?.didFinish() })
    }

    /// Lets go of `child`.
    func removeChild(
        _ child: Coordinator,
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function, filePath: StaticString = #filePath
    ) {
        children.removeAll { $0 === child }
        child.parent = nil
        traceRemoved(child, file: file, line: line, function: function, filePath: filePath)
    }

    /// The flow is over: leave the parent.
    func didFinish(
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function, filePath: StaticString = #filePath
    ) {
        parent?.removeChild(self, file: file, line: line, function: function, filePath: filePath)
    }
}

/// The token attached to a child's screen; it calls back when the screen deallocates.
final class FinishProbe {
    private let onDeinit: () -> Void

    init(_ onDeinit: @escaping () -> Void) {
        self.onDeinit = onDeinit
    }

    deinit {
        onDeinit()
    }
}
