import UIKitStandIn

// The screens hold their view models strongly, as a view controller does.

final class HomeViewController: ViewController {
    let viewModel: HomeViewModel

    init(viewModel: HomeViewModel) {
        self.viewModel = viewModel
        super.init(title: "Home")
    }
}

final class PinkViewController: ViewController {
    let viewModel: PinkViewModel

    init(viewModel: PinkViewModel) {
        self.viewModel = viewModel
        super.init(title: "Pink")
    }
}

final class PinkDetailsViewController: ViewController {
    let viewModel: PinkViewModel

    init(viewModel: PinkViewModel) {
        self.viewModel = viewModel
        super.init(title: "Pink details")
    }
}

final class AboutViewController: ViewController {
    init() { super.init(title: "About") }
}
