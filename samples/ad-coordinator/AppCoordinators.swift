import UIKitStandIn

/// The root: a navigation stack in the window, from which the other flows start.
final class AppCoordinator: TracedCoordinator {
    let navigation = NavigationController(root: HomeViewController())

    func start(in window: Window) {
        traceAsRoot()
        window.rootViewController = navigation
    }
}

/// A profile sheet bound to its screen's lifecycle: a swipe-down dismissal removes the coordinator.
final class ProfileCoordinator: TracedCoordinator {
    func start(over presenter: ViewController) {
        let screen = ProfileViewController()
        present(screen, over: presenter)
        bindToLifecycle(of: screen)
    }
}

/// A settings sheet whose author forgot `bindToLifecycle(of:)`: a swipe-down dismissal tells nobody.
final class SettingsCoordinator: TracedCoordinator {
    func start(over presenter: ViewController) {
        present(SettingsViewController(), over: presenter)
    }
}

/// An order's screen, from which the user opens a chat about the order.
final class OrderCoordinator: TracedCoordinator {
    func start(on navigation: NavigationController) {
        push(OrderViewController(), on: navigation)
    }
}

/// The support screen, which takes over conversations started elsewhere.
final class SupportCoordinator: TracedCoordinator {
    func start(on navigation: NavigationController) {
        push(SupportViewController(), on: navigation)
    }
}

/// A chat sheet bound to its screen; it may change parents while it is open.
final class ChatCoordinator: TracedCoordinator {
    private weak var screen: ChatViewController?

    func start(over presenter: ViewController) {
        let screen = ChatViewController()
        self.screen = screen
        present(screen, over: presenter)
        bindToLifecycle(of: screen)
    }

    /// The conversation ends: the sheet closes, and its lifecycle binding removes this coordinator.
    func finish() {
        screen?.dismiss()
    }
}
