import UIKitStandIn

/// Shows a static screen whose view model needs nothing back, so nothing holds the coordinator once `start()`
/// returns: it is freed at once, which is fine and no leak.
final class AboutCoordinator: Coordinator {
    private let navigation: NavigationController

    init(navigation: NavigationController) {
        self.navigation = navigation
    }

    func start() {
        show(AboutViewController(), on: navigation)
    }
}
