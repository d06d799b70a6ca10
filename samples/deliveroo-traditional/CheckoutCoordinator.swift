import UIKitStandIn

/// The checkout screen, which can open a payment sheet as a child flow.
final class CheckoutCoordinator: BaseCoordinator {
    override func start() {
        show(CheckoutViewController())
    }

    /// The user taps Pay: the payment flow starts as a child.
    func pay() {
        let payment = PaymentCoordinator(navigationController: navigationController)
        store(coordinator: payment)
        payment.start()
    }

    /// The user cancels the order while the payment sheet is still up. The screen goes, but `didFinish()` takes the
    /// early return because the payment child is open, so Home never frees this coordinator.
    func cancelOrder() {
        navigationController.pop()
        didFinish()
    }
}

/// The payment sheet, presented over the navigation stack.
final class PaymentCoordinator: BaseCoordinator {
    // Kept to update the sheet as the payment progresses; the sheet stays up until the payment ends.
    private let sheet = PaymentSheetViewController()

    override func start() {
        present(sheet)
    }
}
