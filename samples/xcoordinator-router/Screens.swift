import UIKitStandIn

final class ProductListViewController: ViewController {
    let router: Router<HomeRoute>

    init(router: Router<HomeRoute>) {
        self.router = router
        super.init(title: "ProductListViewController")
    }
}

final class ProductViewController: ViewController {
    init() { super.init(title: "ProductViewController") }
}

final class SettingsViewController: ViewController {
    init() { super.init(title: "SettingsViewController") }
}

final class ProfileViewController: ViewController {
    init() { super.init(title: "ProfileViewController") }
}
