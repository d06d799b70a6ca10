import UIKitStandIn

/// A screen that finishes its coordinator when it goes away, however it goes: the back button, a swipe, code.
final class FinishingViewController: ViewController {
    private weak var coordinator: BaseCoordinator?

    init(title: String, finishing coordinator: BaseCoordinator) {
        self.coordinator = coordinator
        super.init(title: title)
    }

    deinit {
        coordinator?.didFinish()
    }
}

/// The yellow flow fixed: its screen's deinit calls `didFinish()`.
final class FixedYellowCoordinator: BaseCoordinator {
    override func start() {
        show(FinishingViewController(title: "Yellow", finishing: self))
    }
}

/// The green flow fixed the same way.
final class FixedGreenCoordinator: BaseCoordinator {
    override func start() {
        show(FinishingViewController(title: "Green", finishing: self))
    }
}
