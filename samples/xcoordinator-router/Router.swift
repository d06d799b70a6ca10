import UIKitStandIn

/// XCoordinator's vocabulary, written from scratch: a coordinator owns its `rootViewController` strongly, screens
/// reach it through a weak `Router`, and every navigation goes through `trigger(_:)`, which asks the coordinator
/// for a `Transition` and performs it.
protocol Route {}

/// What a coordinator hands back for a route: one navigation step on its root view controller.
enum Transition {
    case push(ViewController)
    case present(ViewController)
    case presentCoordinator(AnyCoordinator)
    case select(index: Int)
    case none
}

/// What every coordinator is, whatever its route type: something with a root view controller and children.
class AnyCoordinator {
    /// Held strongly, as XCoordinator's `rootViewController` is: while the coordinator lives, so does its screen.
    let rootViewController: ViewController
    private(set) var children: [AnyCoordinator] = []

    init(rootViewController: ViewController) {
        self.rootViewController = rootViewController
    }

    /// Adds `child` and reports it, with the call site of whoever triggered the route that made it.
    func addChild(_ child: AnyCoordinator, site: CallSite) {
        children.append(child)
        traceAdded(child, site: site)
    }

    /// Removes `child` and reports it, with the call site of whoever removed it.
    func removeChild(
        _ child: AnyCoordinator,
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function, filePath: StaticString = #filePath
    ) {
        children.removeAll { $0 === child }
        traceRemoved(child, site: CallSite(file: file, line: line, function: function, filePath: filePath))
    }
}

/// Where a route was triggered, forwarded through `trigger` so that reports name the app's line, not the router's.
struct CallSite {
    var file: StaticString
    var line: UInt
    var function: StaticString
    var filePath: StaticString
}

/// A coordinator for one route type: `trigger(_:)` is the only way to navigate.
class BaseCoordinator<RouteType: Route>: AnyCoordinator {
    /// Prepares the transition for `route`; subclasses override it.
    func prepareTransition(for route: RouteType) -> Transition { .none }

    /// Navigates to `route`. The call site is passed along to the children the transition adds.
    func trigger(
        _ route: RouteType, file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function,
        filePath: StaticString = #filePath
    ) {
        perform(prepareTransition(for: route), site: CallSite(file: file, line: line, function: function, filePath: filePath))
    }

    private func perform(_ transition: Transition, site: CallSite) {
        switch transition {
        case .push(let screen):
            (rootViewController as? NavigationController)?.push(screen)
        case .present(let screen):
            rootViewController.present(screen)
        case .presentCoordinator(let child):
            addChild(child, site: site)
            rootViewController.present(child.rootViewController)
        case .select(let index):
            (rootViewController as? TabBarController)?.selectedIndex = index
        case .none:
            break
        }
    }
}

/// A screen's way back to its coordinator: weak, so screens never keep coordinators alive.
final class Router<RouteType: Route> {
    private weak var coordinator: BaseCoordinator<RouteType>?

    init(_ coordinator: BaseCoordinator<RouteType>) {
        self.coordinator = coordinator
    }

    func trigger(
        _ route: RouteType, file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function,
        filePath: StaticString = #filePath
    ) {
        coordinator?.trigger(route, file: file, line: line, function: function, filePath: filePath)
    }
}
