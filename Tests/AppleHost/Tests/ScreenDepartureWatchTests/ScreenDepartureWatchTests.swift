#if canImport(UIKit)
import CoordinatorLens
import CoordinatorTrace
import UIKit
import XCTest

/// The hook's own watch on UIKit: a bound view controller that its coordinator keeps alive is dismissed when it is
/// popped or dismissed, and not when it is only covered or its tab is in the background.
@MainActor
final class ScreenDepartureWatchTests: XCTestCase {
    /// A coordinator that owns its screen, as XCoordinator's `rootViewController` does.
    private final class OwningCoordinator {
        let screen = UIViewController()
    }

    private var window: UIWindow!

    override func setUp() {
        window = UIWindow(frame: UIScreen.main.bounds)
        window.makeKeyAndVisible()
    }

    override func tearDown() {
        window.isHidden = true
        window = nil
    }

    /// Lets UIKit deliver appearance callbacks.
    private func turn() {
        RunLoop.current.run(until: Date(timeIntervalSinceNow: 0.3))
    }

    private func dismissals(_ sink: MemorySink) -> [Event] {
        let recording = Recording(bytes: sink.bytes)
        return recording.sessions.flatMap { log in
            log.entries.compactMap { entry -> Event? in
                guard case .record(let record) = entry, case .dismiss = record.event else { return nil }
                return record.event
            }
        }
    }

    func testAPoppedScreenItsCoordinatorHoldsDismissesIt() {
        let tracer = Tracer()
        let sink = MemorySink()
        tracer.start(app: "Watch", sink: sink, options: TraceOptions(grace: 0))
        let root = UIViewController()
        let navigation = UINavigationController(rootViewController: root)
        window.rootViewController = navigation
        turn()
        let product = OwningCoordinator()
        tracer.added(product, to: nil)
        tracer.bind(product, to: product.screen)
        navigation.pushViewController(product.screen, animated: false)
        turn()
        navigation.popViewController(animated: false)
        turn()
        tracer.end()
        XCTAssertEqual(dismissals(sink), [.dismiss(id: 1, via: .screenLeft)])
        withExtendedLifetime(product) {}
    }

    func testASheetDismissedItsCoordinatorHoldsDismissesIt() {
        let tracer = Tracer()
        let sink = MemorySink()
        tracer.start(app: "Watch", sink: sink, options: TraceOptions(grace: 0))
        let root = UIViewController()
        window.rootViewController = root
        turn()
        let product = OwningCoordinator()
        tracer.added(product, to: nil)
        tracer.bind(product, to: product.screen)
        root.present(product.screen, animated: false)
        turn()
        root.dismiss(animated: false)
        turn()
        tracer.end()
        XCTAssertEqual(dismissals(sink), [.dismiss(id: 1, via: .screenLeft)])
        withExtendedLifetime(product) {}
    }

    /// A cached coordinator's screen, swiped away and presented again (firefox-ios's library panel): the appear watch
    /// binds the coordinator again, so it is alive, shown again, while its screen is up.
    func testAScreenPresentedAgainAfterItLeftBringsItsCoordinatorBack() throws {
        let tracer = Tracer()
        let sink = MemorySink()
        tracer.start(app: "Watch", sink: sink, options: TraceOptions(grace: 0))
        let root = UIViewController()
        window.rootViewController = root
        turn()
        let library = OwningCoordinator()
        tracer.added(library, to: nil)
        tracer.bind(library, to: library.screen)
        root.present(library.screen, animated: false)
        turn()
        root.dismiss(animated: false)
        turn()
        root.present(library.screen, animated: false)
        turn()
        tracer.end()
        XCTAssertEqual(dismissals(sink), [.dismiss(id: 1, via: .screenLeft)])
        let log = try XCTUnwrap(Recording(bytes: sink.bytes).sessions.first)
        let snapshot = try log.snapshot(grace: 0)
        XCTAssertEqual(snapshot.node(1)?.verdict, .alive)
        XCTAssertEqual(snapshot.node(1)?.shownAgain?.count, 1)
        withExtendedLifetime(library) {}
    }

    /// A view controller subclass whose closure captures its coordinator, swiped away: the retainer search walks a
    /// UIKit object's Swift properties and names the closure (Objective-C ivars are not read).
    func testTheRetainerSearchNamesAViewControllersClosure() {
        final class ChatViewController: UIViewController {
            var onSend: (() -> Void)?
        }
        final class ChatCoordinator {
            let screen = ChatViewController()
            func send() {}
        }
        let tracer = Tracer()
        tracer.start(app: "Watch", sink: MemorySink(), options: TraceOptions(grace: 0))
        let root = UIViewController()
        window.rootViewController = root
        let app = OwningCoordinator()
        tracer.added(app, to: nil)
        tracer.bind(app, to: root)
        var chat: ChatCoordinator? = ChatCoordinator()
        tracer.added(chat!, to: app)
        let note = "sent"
        chat!.screen.onSend = { [chat] in
            chat?.send()
            _ = note
        }
        tracer.removed(chat!, from: app)
        chat = nil
        let paths = tracer.searchRetainers()
        tracer.end()
        XCTAssertEqual(paths.count, 1)
        XCTAssertEqual(paths.first?.outcome, .cycle, "\(paths)")
        XCTAssertEqual(paths.first?.description, "ChatCoordinator#2.screen › ChatViewController.onSend (capture) › ChatCoordinator#2")
        withExtendedLifetime(app) {}
    }

    func testACoveredScreenAndABackgroundTabAreNotDismissed() {
        let tracer = Tracer()
        let sink = MemorySink()
        tracer.start(app: "Watch", sink: sink, options: TraceOptions(grace: 0))
        let tabs = UITabBarController()
        let first = OwningCoordinator()
        let second = OwningCoordinator()
        let navigation = UINavigationController(rootViewController: first.screen)
        tabs.viewControllers = [navigation, second.screen]
        window.rootViewController = tabs
        turn()
        tracer.added(first, to: nil)
        tracer.bind(first, to: first.screen)
        tracer.added(second, to: nil)
        tracer.bind(second, to: second.screen)
        navigation.pushViewController(UIViewController(), animated: false)
        turn()
        tabs.selectedIndex = 1
        turn()
        tabs.selectedIndex = 0
        turn()
        tabs.present(UIViewController(), animated: false)
        turn()
        tracer.end()
        XCTAssertEqual(dismissals(sink), [])
        withExtendedLifetime((first, second)) {}
    }
}
#endif
