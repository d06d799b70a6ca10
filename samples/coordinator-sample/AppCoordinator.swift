import UIKitStandIn

/// The root: it builds the tab coordinator with its tabs' coordinators and puts its container in the window.
final class AppCoordinator: Coordinator {
    let mainTab: MainTabCoordinator
    private let window: Window

    init(window: Window) {
        self.window = window
        mainTab = MainTabCoordinator(tabs: [FeedCoordinator(), SearchCoordinator()])
    }

    var childCoordinators: [any Coordinator] { [mainTab] }

    func start() {
        window.rootViewController = mainTab.tabBarController
        mainTab.start()
    }
}

/// The tab container; its children are injected at init, one per tab.
final class MainTabCoordinator: TabBarCoordinator {
    let tabBarController = TabBarController()
    let tabs: [any NavigationCoordinator]

    init(tabs: [any NavigationCoordinator]) {
        self.tabs = tabs
    }

    var childCoordinators: [any Coordinator] { tabs }

    func start() {
        tabBarController.viewControllers = tabs.map(\.navigationController)
        tabs.forEach { $0.start() }
    }
}
