@_spi(Locking) import CoordinatorWire

/// The screen of a coordinator whose view is SwiftUI with no view controller of the app's own: it stands for the view's
/// place in the hierarchy, and the `coordinatorScreen(_:)` view modifier keeps it in the view's state.
///
/// SwiftUI keeps a view's state while the view is shown or covered by another, and frees it when the view is popped,
/// its sheet dismissed or swiped down, or its tab removed; so this object is freed exactly when the screen is gone,
/// whoever still keeps the coordinator (a path item the stack lingers on, a model), and the coordinator bound to it is
/// then dismissed, as a freed view controller dismisses its own.
public final class HostedScreen: Sendable {
    private let bound = LockedBox(false)

    /// A screen no coordinator is bound to yet.
    public init() {}

    /// The view appeared: the first time, `coordinator` is bound to this screen (with the caller's call site); later
    /// (uncovered again) it sends nothing, or, after a departure `tracer.screenLeft` reported, shows it again.
    public func appeared(
        for coordinator: AnyObject, tracer: Tracer = .shared,
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function,
        filePath: StaticString = #filePath
    ) {
        let first = bound.withLock { isBound in
            defer { isBound = true }
            return !isBound
        }
        if first {
            tracer.bind(coordinator, to: self, file: file, line: line, function: function, filePath: filePath)
        } else {
            tracer.screenAppeared(self)
        }
    }
}
