import CoordinatorTrace
import SampleRun
import UIKitStandIn

// The appcoordinator-segue style: each child sits in one optional slot that is never cleared.
SampleRun.main(app: "SegueSlotSample") { settle in
    let window = Window()
    let app = AppCoordinator(window: window)
    app.start()

    // Login opened and cancelled: the sheet goes, the coordinator stays in its slot.
    app.performLoginSegue()
    (app.welcome.presentedViewController as! LoginViewController).cancel()
    CoordinatorTrace.mark("first login cancelled")
    settle()

    // Reopened later: the slot is overwritten, so the first login is freed only now (late), and the second one,
    // cancelled too, stays in the slot (retained).
    app.performLoginSegue()
    (app.welcome.presentedViewController as! LoginViewController).cancel()
    CoordinatorTrace.mark("second login cancelled")
    settle()

    return (window, app)
}
