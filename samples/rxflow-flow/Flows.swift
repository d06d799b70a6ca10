import UIKitStandIn

enum AppStep: Step { case home, cartRequired, wishlistRequired }
enum CartStep: Step { case cart, checkout }
enum WishlistStep: Step { case wishlist }

/// The app's root flow: a navigation stack with the home screen, presenting the cart and wishlist flows.
final class AppFlow: Flow {
    let navigation = NavigationController(title: "AppNavigationController")
    var root: ViewController { navigation }

    func navigate(to step: Step) -> FlowContributors {
        switch step as? AppStep {
        case .home:
            let home = HomeViewController()
            navigation.push(home)
            return .one(flowContributor: .contribute(withNextPresentable: home, withNextStepper: home.viewModel))
        case .cartRequired:
            let cart = CartFlow()
            navigation.present(cart.root)
            return .one(flowContributor: .child(cart, withNextStepper: OneStepper(withSingleStep: CartStep.cart)))
        case .wishlistRequired:
            let wishlist = WishlistFlow()
            navigation.present(wishlist.root)
            return .one(flowContributor: .child(wishlist, withNextStepper: OneStepper(withSingleStep: WishlistStep.wishlist)))
        case nil:
            return .none
        }
    }
}

/// The leak: its view model's step handler captures the flow strongly. The flow holds its root, the root the
/// screen, the screen the view model, the view model the flow: when the sheet is swiped down, the engine ends the
/// flow, and the cycle keeps it alive.
final class CartFlow: Flow {
    let navigation = NavigationController(title: "CartNavigationController")
    var root: ViewController { navigation }

    func navigate(to step: Step) -> FlowContributors {
        guard case .cart = step as? CartStep else { return .none }
        let screen = CartViewController()
        screen.viewModel.onCheckout = { self.checkoutTapped() }
        navigation.push(screen)
        return .one(flowContributor: .contribute(withNextPresentable: screen, withNextStepper: screen.viewModel))
    }

    private func checkoutTapped() {}
}

/// The fix: the same shape with `[weak self]`, so the flow goes once the engine lets go of it.
final class WishlistFlow: Flow {
    let navigation = NavigationController(title: "WishlistNavigationController")
    var root: ViewController { navigation }

    func navigate(to step: Step) -> FlowContributors {
        guard case .wishlist = step as? WishlistStep else { return .none }
        let screen = CartViewController()
        screen.viewModel.onCheckout = { [weak self] in self?.checkoutTapped() }
        navigation.push(screen)
        return .one(flowContributor: .contribute(withNextPresentable: screen, withNextStepper: screen.viewModel))
    }

    private func checkoutTapped() {}
}
