import CoordinatorTrace
import SampleRun
import UIKitStandIn

// RxFlow-style flows: the engine ends a child flow when its root is dismissed, so swiping a sheet down is handled;
// the cart flow still leaks through a closure that captures it, and the wishlist flow has the fix.
SampleRun.main(app: "RxFlowSample") { settle in
    let window = Window()
    let app = AppFlow()
    let coordinator = FlowCoordinator(flow: app)
    window.rootViewController = app.root
    coordinator.coordinate(with: OneStepper(withSingleStep: AppStep.home))
    let home = app.navigation.topViewController as! HomeViewController

    for _ in 1...2 {
        home.viewModel.emit?(AppStep.cartRequired)
        app.navigation.presentedViewController!.swipeDown()
    }
    CoordinatorTrace.mark("cart swiped down twice")

    home.viewModel.emit?(AppStep.wishlistRequired)
    app.navigation.presentedViewController!.swipeDown()
    CoordinatorTrace.mark("wishlist swiped down")

    settle()
    return (window, coordinator)
}
