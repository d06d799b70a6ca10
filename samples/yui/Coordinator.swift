import UIKitStandIn

/// A coordinator in Yui's style: when a child is added, a probe token rides on the screen the child presented; the
/// token's deinit calls the child's `didFinish()`, which removes it from its parent.
class Coordinator {
    private(set) var children: [Coordinator] = []
    private(set) weak var parent: Coordinator?

    /// The screen this coordinator presented, set by `start()`.
    weak var presentedScreen: ViewController? {
        didSet { traceShowsIfInTree(presentedScreen) }
    }

    /// Presents the coordinator's screen and sets `presentedScreen`.
    func start() {}

    /// Adds `child` and attaches the probe to its screen. A child that has not started has no screen yet, so no
    /// probe: start first, then add.
    func addChild(_ child: Coordinator, file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function) {
        children.append(child)
        child.parent = self
        traceAdded(child, file: file, line: line, function: function)
        child.traceShowsIfInTree(child.presentedScreen)
        child.presentedScreen?.attach(FinishProbe { [weak child] in child?.didFinish() })
    }

    /// Lets go of `child`.
    func removeChild(_ child: Coordinator) {
        children.removeAll { $0 === child }
        child.parent = nil
        traceRemoved(child)
    }

    /// The flow is over: leave the parent.
    func didFinish() {
        parent?.removeChild(self)
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
