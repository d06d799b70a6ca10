import CoordinatorTrace
import SampleRun
import UIKitStandIn

// Deliveroo's inverted ownership: view models hold their coordinators; nobody keeps children.
// The user drives the screens through their view models, as taps would.
SampleRun.main(app: "DeliverooInvertedSample") { settle in
    let window = Window()
    let navigation = NavigationController()
    window.rootViewController = navigation
    HomeCoordinator(navigation: navigation).start(from: nil)
    let home = navigation.topViewController as! HomeViewController

    do {
        // Pink, two screens pushed, then popped one by one: the coordinator goes with the last screen (clean).
        home.viewModel.openPink()
        (navigation.topViewController as! PinkViewController).viewModel.next()
        (navigation.topViewController as! PinkDetailsViewController).viewModel.next()
        navigation.tapBack()
        CoordinatorTrace.mark("pink flow popped")
    }
    do {
        // About: the coordinator is freed right after start(), while its screen is still up (clean, not an error).
        home.viewModel.openAbout()
        CoordinatorTrace.mark("about shown")
        navigation.tapBack()
    }

    settle()
    return window
}
