import CoordinatorTrace
import SampleRun
import UIKitStandIn

// CoordinatorSample's style: NavigationCoordinator and TabBarCoordinator protocols, a tree fixed at init.
// Nothing here is ever done, so there is nothing to wait for: every coordinator stays alive (clean).
SampleRun.main(app: "CoordinatorSampleStyle") { _ in
    let window = Window()
    let app = AppCoordinator(window: window)
    app.start()
    app.traceTree()

    let tabs = app.mainTab.tabBarController
    for (index, tab) in app.mainTab.tabs.enumerated() {
        // Each tab: select it, open two rows' details one after the other, back out of each.
        tabs.selectedIndex = index
        let navigation = tab.navigationController
        for row in 1...2 {
            (navigation.topViewController as! ListViewController).select(row)
            navigation.tapBack()
        }
        CoordinatorTrace.mark("\(navigation.title): details pushed and popped")
    }
    return (window, app)
}
