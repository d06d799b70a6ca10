import UIKitStandIn

/// A two-screen flow. Both screens' view models capture the coordinator, so it goes when the last of them is popped.
final class PinkCoordinator: Coordinator {
    private let navigation: NavigationController

    init(navigation: NavigationController) {
        self.navigation = navigation
    }

    func start() {
        let viewModel = PinkViewModel(next: { [self] in showDetails() })
        show(PinkViewController(viewModel: viewModel), on: navigation)
    }

    private func showDetails() {
        let viewModel = PinkViewModel(next: { [self] in navigation.pop() })
        navigation.push(PinkDetailsViewController(viewModel: viewModel))
    }
}

/// What the pink screens can do: go on.
final class PinkViewModel {
    let next: () -> Void

    init(next: @escaping () -> Void) {
        self.next = next
    }
}
