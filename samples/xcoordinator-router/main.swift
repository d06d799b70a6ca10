import CoordinatorTrace
import SampleRun
import UIKitStandIn

// XCoordinator-style routers: coordinators own their root view controllers, screens hold a weak router, and every
// navigation goes through trigger(_:). Three products are swiped down and never removed (the router is not told):
// their screens leave but are never freed, since each product still owns its own. Settings has the fix.
SampleRun.main(app: "XCoordinatorRouterSample") { settle in
    let window = Window()
    let app = AppCoordinator()
    app.start(in: window)
    CoordinatorTrace.mark("tabs ready")

    let list = app.home.rootViewController as! NavigationController
    for id in ["espresso", "grinder", "kettle"] {
        let router = (list.topViewController as! ProductListViewController).router
        router.trigger(.product(id))
        list.presentedViewController!.swipeDown()
    }
    CoordinatorTrace.mark("three products swiped down")

    app.home.trigger(.settings)
    list.presentedViewController!.swipeDown()
    CoordinatorTrace.mark("settings swiped down")

    // The background tab and a covered screen: both disappear, neither leaves.
    app.trigger(.profile)
    app.trigger(.home)
    app.home.trigger(.settings)
    CoordinatorTrace.mark("settings shown over the list")

    settle()
    return (window, app)
}
