import CoordinatorTrace
import Foundation
import SampleRun
import UIKitStandIn

// A browser in the style of a large open-source one. Flows: `library` (opened, swiped down, opened again: the cached
// coordinator is shown again), `share` (a sheet swiped down: the bug leaves its coordinator in the router's completion
// dictionary), `tabs` (nine panel switches: the bug piles up a panel coordinator per switch). `--fixed` runs the fixed
// build; `--flow NAME` runs one flow, as one recording per UI test would.
var arguments = Array(CommandLine.arguments.dropFirst())
let fixed = arguments.contains("--fixed")
arguments.removeAll { $0 == "--fixed" }
var flows = ["library", "share", "tabs"]
if let at = arguments.firstIndex(of: "--flow"), at + 1 < arguments.count {
    flows = [arguments[at + 1]]
    arguments.removeSubrange(at...(at + 1))
}
let app = fixed ? "BrowserTabsFixedSample" : "BrowserTabsSample"
// The browser keeps its library coordinator for reuse by design: declared, so a cached one is kept, not a leak.
let options = TraceOptions(reusableTypes: [ReusableType(LibraryCoordinator.self, keeping: 1)])

SampleRun.main(app: app, arguments: arguments, options: options) { settle in
    let window = Window()
    let navigation = NavigationController(root: ViewController(title: "Browser"))
    window.rootViewController = navigation
    let browser = BrowserCoordinator(router: Router(navigationController: navigation), fixed: fixed)
    CoordinatorTrace.added(browser, to: nil)

    if flows.contains("library") {
        browser.showLibrary()
        navigation.presentedViewController!.swipeDown()
        settle()
        CoordinatorTrace.mark("library swiped down")
        browser.showLibrary()
        settle()
        CoordinatorTrace.mark("library shown again")
        navigation.presentedViewController!.swipeDown()
        CoordinatorTrace.mark("library swiped down again")
    }
    if flows.contains("share") {
        let sheet = browser.showShareSheet()
        sheet.swipeDown()
        browser.shareSheetSwipedDown(sheet)
        CoordinatorTrace.mark("share sheet swiped down")
    }
    if flows.contains("tabs") {
        let tray = browser.showTabTray()
        for panel in ["private", "synced", "tabs", "private", "synced", "tabs", "private", "synced"] { tray.show(panel: panel) }
        CoordinatorTrace.mark("nine panel switches")
    }
    settle()
    return (window, browser)
}
