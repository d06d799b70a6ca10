import CoordinatorTrace
import SampleRun

// A Matrix client's navigation: a root, a split of two SwiftUI stacks holding screen coordinators in modules, flow
// coordinators in optional properties, `actionsSubject` sinks, screens bound through `.coordinatorScreen` (here its
// stand-in). Three leaks from its tracker, each fixed by `--fixed`: a stack that keeps the room it popped, a details
// view model kept by its own sink after its coordinator was freed, and a settings sheet swiped down while its flow
// stays in its property.
var arguments = Array(CommandLine.arguments.dropFirst())
let fixed = arguments.contains("--fixed")
arguments.removeAll { $0 == "--fixed" }

SampleRun.main(app: "ElementFlowsSample", arguments: arguments) { settle in
    let root = NavigationRootCoordinator()
    root.start()
    let session = UserSessionFlowCoordinator(root: root, fixed: fixed)
    CoordinatorTrace.added(session, to: root)
    session.start()
    let home = session.sidebar.rootModule!.coordinator as! HomeScreenCoordinator

    // A room opened from the sidebar and left with the back button.
    home.actionsSubject.send(.openRoom("!lobby"))
    (session.detail.host.pathItems.last!.coordinator as! RoomScreenCoordinator).actionsSubject.send(.leftRoom)
    CoordinatorTrace.mark("room left")

    // The room's details, shown on the sidebar stack and popped.
    home.actionsSubject.send(.showRoomDetails("!lobby"))
    session.sidebar.userWentBack()
    CoordinatorTrace.mark("details popped")

    // Settings presented as a sheet and swiped down.
    home.actionsSubject.send(.openSettings)
    root.sheet.swipeDown { session.settingsSheetDismissed() }
    CoordinatorTrace.mark("settings swiped down")
    settle()

    return (root, session)
}
