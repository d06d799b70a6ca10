import CoordinatorTrace
import SampleRun
import UIKitStandIn

// One checkout flow, before and after its fix, for `coordlens diff`: run it plain, then with --fixed.
// Closing the checkout dismisses its sheet and tells the parent; only the fixed build removes the child, so only there
// does the CheckoutCoordinator deinit. Everything else is the same in both runs.
var arguments = Array(CommandLine.arguments.dropFirst())
let fixed = arguments.contains("--fixed")
arguments.removeAll { $0 == "--fixed" }

SampleRun.main(app: "CheckoutFixSample", arguments: arguments) { settle in
    let window = Window()
    let app = AppCoordinator(window: window, fixed: fixed)
    CoordinatorTrace.added(app, to: nil)
    app.start()
    CoordinatorTrace.mark("tabs ready")

    app.mainTab.showCheckout().close()
    CoordinatorTrace.mark("checkout closed")
    settle()
    return (window, app)
}
