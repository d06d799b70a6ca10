import UIKitStandIn

/// The home screen's flow; its view model's closures are what keep it alive.
final class HomeCoordinator: Coordinator {
    private let navigation: NavigationController

    init(navigation: NavigationController) {
        self.navigation = navigation
    }

    func start() {
        let viewModel = HomeViewModel(
            openPink: { [self] in PinkCoordinator(navigation: navigation).start(from: self) },
            openAbout: { [self] in AboutCoordinator(navigation: navigation).start(from: self) }
        )
        show(HomeViewController(viewModel: viewModel), on: navigation)
    }
}

/// What the home screen can do.
final class HomeViewModel {
    let openPink: () -> Void
    let openAbout: () -> Void

    init(openPink: @escaping () -> Void, openAbout: @escaping () -> Void) {
        self.openPink = openPink
        self.openAbout = openAbout
    }
}
