import UIKitStandIn

// The app's screens; none of them holds a coordinator.

final class HomeViewController: ViewController {
    init() { super.init(title: "Home") }
}

final class ProfileViewController: ViewController {
    init() { super.init(title: "Profile") }
}

final class SettingsViewController: ViewController {
    init() { super.init(title: "Settings") }
}

final class OrderViewController: ViewController {
    init() { super.init(title: "Order") }
}

final class SupportViewController: ViewController {
    init() { super.init(title: "Support") }
}

final class ChatViewController: ViewController {
    init() { super.init(title: "Chat") }
}
