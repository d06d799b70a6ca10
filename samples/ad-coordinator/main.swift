import CoordinatorTrace
import SampleRun
import UIKitStandIn

// ADCoordinator style: children, a weak parent, addChild/removeChild and bindToLifecycle(of:).
// Each flow sits in its own `do` block, so the sample's local references end with the flow, as a view's would.
SampleRun.main(app: "ADCoordinatorSample") { settle in
    let window = Window()
    let app = AppCoordinator()
    app.start(in: window)
    let navigation = app.navigation

    do {
        // A bound sheet swiped down: its lifecycle binding removes the coordinator (clean).
        let profile = ProfileCoordinator()
        app.addChild(profile)
        profile.start(over: navigation)
        navigation.presentedViewController?.swipeDown()
        CoordinatorTrace.mark("bound sheet swiped down")
    }
    do {
        // An unbound sheet swiped down: nobody is told, so the coordinator stays a child (leak).
        let settings = SettingsCoordinator()
        app.addChild(settings)
        settings.start(over: navigation)
        navigation.presentedViewController?.swipeDown()
        CoordinatorTrace.mark("unbound sheet swiped down")
    }
    do {
        // A chat started from an order moves to support, then finishes there (clean).
        let order = OrderCoordinator()
        app.addChild(order)
        order.start(on: navigation)
        let chat = ChatCoordinator()
        order.addChild(chat)
        chat.start(over: navigation)
        let support = SupportCoordinator()
        app.addChild(support)
        support.start(on: navigation)
        support.addChild(chat)
        CoordinatorTrace.mark("chat moved to support")
        chat.finish()
        CoordinatorTrace.mark("chat finished")
    }

    settle()
    return (window, app)
}
