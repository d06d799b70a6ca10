import UIKitStandIn

/// Pushes the yellow screen. Nothing calls `didFinish()` when the user backs out, so Home keeps it forever.
final class YellowCoordinator: BaseCoordinator {
    override func start() {
        show(YellowViewController())
    }
}

/// Pushes the green screen, with the same mistake as `YellowCoordinator`.
final class GreenCoordinator: BaseCoordinator {
    override func start() {
        show(GreenViewController())
    }
}
