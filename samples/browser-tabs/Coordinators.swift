import CoordinatorTrace
import UIKitStandIn

// The shapes of a large browser's coordinator layer: the app's own base class with `childCoordinators`, a router that
// wraps a navigation controller and keeps a completion closure per presented screen, a library coordinator cached
// and shown again after a swipe-down, and a tab tray that makes a panel coordinator on every panel switch.

/// The app's own base coordinator, as such apps write it: children in an array, added and removed by hand. Both take
/// their caller's call site (all four parts), so the events name the line of the subclass that did it.
class BaseCoordinator {
    var childCoordinators: [BaseCoordinator] = []
    let router: Router

    init(router: Router) {
        self.router = router
    }

    func add(
        child: BaseCoordinator,
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function, filePath: StaticString = #filePath
    ) {
        childCoordinators.append(child)
        CoordinatorTrace.added(child, to: self, file: file, line: line, function: function, filePath: filePath)
    }

    func remove(
        child: BaseCoordinator?,
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function, filePath: StaticString = #filePath
    ) {
        guard let child, let index = childCoordinators.firstIndex(where: { $0 === child }) else { return }
        childCoordinators.remove(at: index)
        CoordinatorTrace.removed(child, from: self, file: file, line: line, function: function, filePath: filePath)
    }
}

/// Wraps the navigation controller; a presented screen's completion runs when it is dismissed through the router.
/// A swipe-down bypasses the router: its completion stays in the dictionary, with whatever it captured.
final class Router {
    let navigationController: NavigationController
    private var completions: [ObjectIdentifier: () -> Void] = [:]

    init(navigationController: NavigationController) {
        self.navigationController = navigationController
    }

    func present(_ screen: ViewController, onDismiss completion: @escaping () -> Void) {
        completions[ObjectIdentifier(screen)] = completion
        navigationController.present(screen)
    }

    func dismiss(_ screen: ViewController) {
        let completion = completions.removeValue(forKey: ObjectIdentifier(screen))
        screen.dismiss(completion: completion)
    }

    /// The fix for swipe-downs: the presentation controller's delegate tells the router, which drops the closure.
    func screenWasSwipedDown(_ screen: ViewController) {
        completions.removeValue(forKey: ObjectIdentifier(screen))?()
    }
}

final class LibraryViewController: ViewController {
    weak var coordinator: LibraryCoordinator?
}

final class ShareViewController: ViewController {}

final class TabTrayViewController: ViewController {}

/// Drives the library (bookmarks, history). The browser keeps it after a swipe-down and shows the same one next time.
final class LibraryCoordinator: BaseCoordinator {
    func start() -> LibraryViewController {
        let screen = LibraryViewController(title: "Library")
        screen.coordinator = self
        CoordinatorTrace.bind(self, to: screen)
        return screen
    }
}

/// Drives a share sheet; its completion closure is what removes it from its parent.
final class ShareCoordinator: BaseCoordinator {}

/// One panel of the tab tray (tabs, private tabs, synced tabs): no screen of its own, it feeds the tray's.
final class TabPanelCoordinator: BaseCoordinator {
    let panel: String

    init(panel: String, router: Router) {
        self.panel = panel
        super.init(router: router)
    }
}

/// The tab tray: a new panel coordinator on every switch. The bug keeps the old ones; the fix removes the previous.
final class TabTrayCoordinator: BaseCoordinator {
    let fixed: Bool
    private weak var current: TabPanelCoordinator?

    init(router: Router, fixed: Bool) {
        self.fixed = fixed
        super.init(router: router)
    }

    func start() -> TabTrayViewController {
        let screen = TabTrayViewController(title: "Tab tray")
        CoordinatorTrace.bind(self, to: screen)
        show(panel: "tabs")
        return screen
    }

    func show(panel: String) {
        if fixed { remove(child: current) }
        let coordinator = TabPanelCoordinator(panel: panel, router: router)
        add(child: coordinator)
        current = coordinator
    }
}

/// The app's root: a browser that presents the library, share sheets and the tab tray.
final class BrowserCoordinator: BaseCoordinator {
    let fixed: Bool
    /// Kept after a swipe-down and reused "if present": a cache by design.
    private var libraryCoordinator: LibraryCoordinator?
    private(set) var tabTray: TabTrayCoordinator?

    init(router: Router, fixed: Bool) {
        self.fixed = fixed
        super.init(router: router)
    }

    @discardableResult
    func showLibrary() -> LibraryViewController {
        let library = libraryCoordinator ?? LibraryCoordinator(router: router)
        if libraryCoordinator == nil {
            add(child: library)
            libraryCoordinator = library
        }
        let screen = library.start()
        router.navigationController.present(screen)
        return screen
    }

    /// The completion captures the share coordinator; only the router's dismissal (or the fix's swipe-down report)
    /// runs it and drops it.
    func showShareSheet() -> ShareViewController {
        let share = ShareCoordinator(router: router)
        add(child: share)
        let screen = ShareViewController(title: "Share")
        CoordinatorTrace.bind(share, to: screen)
        router.present(screen) { [weak self] in self?.remove(child: share) }
        return screen
    }

    /// The sheet's presentation delegate after a swipe-down. The bug removes the child but never tells the router,
    /// whose completion dictionary keeps the closure and the share coordinator it captured.
    func shareSheetSwipedDown(_ screen: ShareViewController) {
        if fixed {
            router.screenWasSwipedDown(screen)
        } else {
            remove(child: childCoordinators.last { $0 is ShareCoordinator })
        }
    }

    func showTabTray() -> TabTrayCoordinator {
        let tray = TabTrayCoordinator(router: router, fixed: fixed)
        add(child: tray)
        tabTray = tray
        router.navigationController.push(tray.start())
        return tray
    }
}
