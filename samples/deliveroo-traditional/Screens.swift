import UIKitStandIn

// The app's screens. None of them holds its coordinator, as in the original pattern; only
// `FinishingViewController` (the fix) knows it, weakly.

final class HomeViewController: ViewController {
    init() { super.init(title: "Home") }
}

final class YellowViewController: ViewController {
    init() { super.init(title: "Yellow") }
}

final class GreenViewController: ViewController {
    init() { super.init(title: "Green") }
}

final class CheckoutViewController: ViewController {
    init() { super.init(title: "Checkout") }
}

final class PaymentSheetViewController: ViewController {
    init() { super.init(title: "Payment") }
}
