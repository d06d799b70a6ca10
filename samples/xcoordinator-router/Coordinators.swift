import UIKitStandIn

enum AppRoute: Route { case home, profile }
enum HomeRoute: Route {
    case list
    case product(String)
    case settings
}
enum ProfileRoute: Route { case profile }
enum ProductRoute: Route { case details }
enum SettingsRoute: Route { case settings }

/// The root: two tabs, each a coordinator of its own that stays alive while the tab is in the background.
final class AppCoordinator: BaseCoordinator<AppRoute> {
    let home = HomeCoordinator()
    let profile = ProfileCoordinator()

    init() {
        super.init(rootViewController: TabBarController(title: "AppTabBarController"))
    }

    func start(in window: Window) {
        traceStarted()
        addChild(home, site: CallSite(file: #fileID, line: #line, function: #function, filePath: #filePath))
        addChild(profile, site: CallSite(file: #fileID, line: #line, function: #function, filePath: #filePath))
        (rootViewController as? TabBarController)?.viewControllers = [home.rootViewController, profile.rootViewController]
        window.rootViewController = rootViewController
        home.trigger(.list)
    }

    override func prepareTransition(for route: AppRoute) -> Transition {
        switch route {
        case .home: .select(index: 0)
        case .profile: .select(index: 1)
        }
    }
}

/// A product list that presents products and settings.
final class HomeCoordinator: BaseCoordinator<HomeRoute> {
    init() {
        super.init(rootViewController: NavigationController(title: "HomeNavigationController"))
    }

    override func prepareTransition(for route: HomeRoute) -> Transition {
        switch route {
        case .list:
            return .push(ProductListViewController(router: Router(self)))
        case .product:
            // The leak: nothing tells this router when the sheet is swiped down, so the product stays a child, and
            // as it owns its screen, the screen is never freed either.
            return .presentCoordinator(ProductCoordinator())
        case .settings:
            // The fix, as XCoordinator apps write it: a presentation delegate removes the child when the sheet goes.
            let settings = SettingsCoordinator()
            settings.onSwipedDown = { [weak self, unowned settings] in self?.removeChild(settings) }
            return .presentCoordinator(settings)
        }
    }
}

/// Owns the product screen it shows.
final class ProductCoordinator: BaseCoordinator<ProductRoute> {
    init() {
        super.init(rootViewController: ProductViewController())
    }
}

/// Owns the settings screen, and hears when it is swiped down, as `presentationControllerDidDismiss` would tell it.
final class SettingsCoordinator: BaseCoordinator<SettingsRoute> {
    var onSwipedDown: (() -> Void)?

    init() {
        super.init(rootViewController: SettingsViewController())
        ViewController.observeDisappearance { [weak self] screen in
            guard let self, screen === self.rootViewController, screen.isBeingDismissed else { return }
            self.onSwipedDown?()
        }
    }
}

/// The background tab.
final class ProfileCoordinator: BaseCoordinator<ProfileRoute> {
    init() {
        super.init(rootViewController: NavigationController(root: ProfileViewController(), title: "ProfileNavigationController"))
    }
}
