import CoordinatorTrace
import UIKitStandIn

/// A coordinator as this shop app writes them: it owns its children and hears from them when their flow ends.
///
/// The app's own base class, instrumented in place: three hook calls where it already adds, removes and shows, each
/// with its caller's call site (all four parts), so the events name the line of the subclass that did it.
class Coordinator {
    var children: [Coordinator] = []
    weak var parent: Coordinator?

    func start() {}

    func addChild(
        _ child: Coordinator,
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function, filePath: StaticString = #filePath
    ) {
        children.append(child)
        child.parent = self
        CoordinatorTrace.added(child, to: self, file: file, line: line, function: function, filePath: filePath)
    }

    func removeChild(
        _ child: Coordinator,
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function, filePath: StaticString = #filePath
    ) {
        children.removeAll { $0 === child }
        CoordinatorTrace.removed(child, from: self, file: file, line: line, function: function, filePath: filePath)
    }

    /// Marks `screen` as the one this coordinator drives, so its deallocation counts as the flow's end.
    func drive(
        _ screen: ViewController,
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function, filePath: StaticString = #filePath
    ) {
        CoordinatorTrace.bind(self, to: screen, file: file, line: line, function: function, filePath: filePath)
    }
}

/// The root: the window shows the main tabs.
final class AppCoordinator: Coordinator {
    let window: Window
    let mainTab: MainTabCoordinator

    init(window: Window, fixed: Bool) {
        self.window = window
        self.mainTab = MainTabCoordinator(fixed: fixed)
    }

    override func start() {
        addChild(mainTab)
        window.rootViewController = mainTab.tabBarController
        mainTab.start()
    }
}

/// Two tabs, Feed and Profile, and the checkout it presents over them.
final class MainTabCoordinator: Coordinator {
    let tabBarController = TabBarController(title: "MainTabBarController")
    /// Whether the checkout's end removes it from `children`: the fix this sample's two runs compare.
    let fixed: Bool

    init(fixed: Bool) {
        self.fixed = fixed
    }

    override func start() {
        drive(tabBarController)
        let feed = FeedCoordinator()
        let profile = ProfileCoordinator()
        for tab in [feed, profile] {
            addChild(tab)
            tab.start()
        }
        tabBarController.viewControllers = [feed.navigationController, profile.navigationController]
    }

    func showCheckout() -> CheckoutCoordinator {
        let checkout = CheckoutCoordinator(presenter: tabBarController)
        checkout.onFinish = { [weak self, unowned checkout] in self?.checkoutDidFinish(checkout) }
        addChild(checkout)
        checkout.start()
        return checkout
    }

    private func checkoutDidFinish(_ checkout: CheckoutCoordinator) {
        // The bug: the screen is gone, but without this line the coordinator stays in `children` for good.
        if fixed { removeChild(checkout) }
    }
}

/// A tab: a navigation stack with one list screen.
class TabCoordinator: Coordinator {
    let navigationController: NavigationController

    init(screenTitle: String) {
        navigationController = NavigationController(root: ViewController(title: screenTitle), title: screenTitle)
    }

    override func start() {
        drive(navigationController)
    }
}

final class FeedCoordinator: TabCoordinator {
    init() {
        super.init(screenTitle: "FeedViewController")
    }
}

final class ProfileCoordinator: TabCoordinator {
    init() {
        super.init(screenTitle: "ProfileViewController")
    }
}

/// The checkout sheet: the user closes it, and it tells its parent.
final class CheckoutCoordinator: Coordinator {
    private weak var presenter: ViewController?
    private(set) weak var screen: ViewController?
    var onFinish: (() -> Void)?

    init(presenter: ViewController) {
        self.presenter = presenter
    }

    override func start() {
        let screen = ViewController(title: "CheckoutViewController")
        self.screen = screen
        presenter?.present(screen)
        drive(screen)
    }

    /// The close button: dismiss the sheet, then report the flow's end.
    func close() {
        screen?.dismiss { [onFinish] in onFinish?() }
    }
}
