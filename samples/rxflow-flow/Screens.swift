import UIKitStandIn

final class HomeViewModel: Stepper {
    var emit: ((Step) -> Void)?
}

final class HomeViewController: ViewController {
    let viewModel = HomeViewModel()

    init() { super.init(title: "HomeViewController") }
}

final class CartViewModel: Stepper {
    var emit: ((Step) -> Void)?
    var onCheckout: (() -> Void)?
}

final class CartViewController: ViewController {
    let viewModel = CartViewModel()

    init() { super.init(title: "CartViewController") }
}
