import UIKitStandIn

/// A coordinator in CoordinatorSample's style: a protocol, with the tree fixed when it is built.
protocol Coordinator: AnyObject {
    var childCoordinators: [any Coordinator] { get }
    func start()
}

/// A coordinator that drives a navigation stack.
protocol NavigationCoordinator: Coordinator {
    var navigationController: NavigationController { get }
}

/// A coordinator that drives a tab container, one child per tab.
protocol TabBarCoordinator: Coordinator {
    var tabBarController: TabBarController { get }
}
