import UIKitStandIn

/// The root flow: the home screen, from which every other flow starts as a stored child.
final class HomeCoordinator: BaseCoordinator {
    override func start() {
        traceAsRoot()
        show(HomeViewController())
    }

    func showYellow() {
        startChild(YellowCoordinator(navigationController: navigationController))
    }

    func showGreen() {
        startChild(GreenCoordinator(navigationController: navigationController))
    }

    func showFixedYellow() {
        startChild(FixedYellowCoordinator(navigationController: navigationController))
    }

    func showFixedGreen() {
        startChild(FixedGreenCoordinator(navigationController: navigationController))
    }

    func showCheckout() -> CheckoutCoordinator {
        startChild(CheckoutCoordinator(navigationController: navigationController))
    }

    @discardableResult
    private func startChild<Child: BaseCoordinator>(
        _ child: Child,
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function, filePath: StaticString = #filePath
    ) -> Child {
        store(coordinator: child, file: file, line: line, function: function, filePath: filePath)
        child.start()
        return child
    }
}
