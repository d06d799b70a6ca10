import UIKitStandIn

final class WelcomeViewController: ViewController {
    init() { super.init(title: "Welcome") }
}

/// The login form; its Cancel button calls `cancel`.
final class LoginViewController: ViewController {
    var cancel: () -> Void = {}

    init() { super.init(title: "Log in") }
}
