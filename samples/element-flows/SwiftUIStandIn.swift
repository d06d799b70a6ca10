import CoordinatorTrace

// SwiftUI's part, as far as this sample needs it, for Linux: a view's state lives while the view is in the
// hierarchy (shown, or covered by another) and is freed when the view leaves it. The `coordinatorScreen` view
// modifier keeps a `HostedScreen` in that state and calls `appeared(for:)` from `onAppear`; `HostedView` does the
// same, so the hook's side runs here exactly as it does under SwiftUI.

/// A coordinator's view, `.coordinatorScreen(coordinator)` applied: its state holds the screen.
final class HostedView {
    let title: String
    private weak var coordinator: AnyObject?
    /// The view's state, which SwiftUI frees with the view.
    private let screen = HostedScreen()

    init(_ title: String, screenOf coordinator: AnyObject) {
        self.title = title
        self.coordinator = coordinator
    }

    /// SwiftUI's `onAppear`: what the modifier does in it.
    func appear() {
        guard let coordinator else { return }
        screen.appeared(for: coordinator)
    }
}

/// A `NavigationStack` with its path, as apps drive it from a stack coordinator: a root view and the views of the
/// path's items, each mounted while its item is on the path.
final class StackHost {
    private(set) var root: HostedView?
    private(set) var pathItems: [NavigationModule] = []
    private var mounted: [HostedView] = []
    /// The popped items a stack keeps (the bug: SwiftUI's path binding written back late, an item kept for the pop
    /// animation and never let go), when `keepsPoppedItems` is on.
    private(set) var lingeringPathItems: [NavigationModule] = []
    let keepsPoppedItems: Bool

    init(keepsPoppedItems: Bool) {
        self.keepsPoppedItems = keepsPoppedItems
    }

    func setRoot(_ view: HostedView) {
        root = view
        view.appear()
    }

    func push(_ module: NavigationModule) {
        pathItems.append(module)
        let view = module.coordinator.toPresentable()
        mounted.append(view)
        view.appear()
    }

    /// The back button: the top view leaves the hierarchy (its state is freed), its item leaves the path.
    @discardableResult
    func pop() -> NavigationModule? {
        guard let module = pathItems.popLast() else { return nil }
        mounted.removeLast()
        if keepsPoppedItems { lingeringPathItems.append(module) }
        return module
    }
}

/// A sheet slot, as `.sheet(item:)` holds one: the presented view is mounted while the item is set.
final class SheetHost {
    private(set) var presented: HostedView?

    func present(_ view: HostedView) {
        presented = view
        view.appear()
    }

    /// Swiped down: SwiftUI sets the item to nil and frees the sheet's view; `onDismiss` runs.
    func swipeDown(onDismiss: () -> Void) {
        presented = nil
        onDismiss()
    }
}
