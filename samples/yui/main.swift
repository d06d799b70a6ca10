import CoordinatorTrace
import SampleRun
import UIKitStandIn

// Yui's style: a probe token on the presented screen leads to didFinish(), which leads to removeChild.
SampleRun.main(app: "YuiSample") { settle in
    let window = Window()
    let app = AppCoordinator()
    app.start(in: window)

    // Start, then addChild: the probe is attached, and swiping the sheet down removes the child (clean).
    app.openSearch()
    app.root.presentedViewController?.swipeDown()
    CoordinatorTrace.mark("search swiped down")

    // addChild, then start: no probe, so swiping the sheet down leaves the child in place (leak).
    app.openFilter()
    app.root.presentedViewController?.swipeDown()
    CoordinatorTrace.mark("filter swiped down")

    settle()
    return (window, app)
}
