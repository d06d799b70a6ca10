import CoordinatorTrace
import SampleRun
import UIKitStandIn

// Deliveroo's traditional coordinators: store(coordinator:) / didFinish() / free(coordinator:).
SampleRun.main(app: "DeliverooTraditionalSample") { settle in
    let window = Window()
    let navigation = NavigationController()
    window.rootViewController = navigation
    let home = HomeCoordinator(navigationController: navigation)
    home.start()

    // Yellow and Green three times each; the user backs out and nobody calls didFinish(): six leaks.
    for _ in 1...3 {
        home.showYellow()
        navigation.tapBack()
        home.showGreen()
        navigation.tapBack()
    }
    CoordinatorTrace.mark("colours left without didFinish")

    // The fix: the screens call didFinish() from their deinit, so backing out frees the coordinators.
    home.showFixedYellow()
    navigation.tapBack()
    home.showFixedGreen()
    navigation.tapBack()
    CoordinatorTrace.mark("fixed colours left")

    do {
        // The early return: checkout is cancelled while its payment sheet is up, so checkout never finishes.
        let checkout = home.showCheckout()
        checkout.pay()
        checkout.cancelOrder()
        CoordinatorTrace.mark("checkout cancelled during payment")
    }

    settle()
    return (window, home)
}
