import CoordinatorTrace

/// A destination of one flow, in the style of XCoordinator's routes: how it is shown and the key its completion is
/// kept under while it is on screen.
protocol AppRoute {
    var presentationKey: String { get }
    var isModal: Bool { get }
}

enum HomeRoute: String, AppRoute {
    case room, composer, search, settings, members, location

    var presentationKey: String { rawValue }
    var isModal: Bool { self == .search || self == .settings }
}

/// Which routes were dismissed, for the app's analytics: a plain object the router's completions capture.
final class RouteHistory {
    private(set) var dismissed: [String] = []

    func record<Route: AppRoute>(_ route: Route) { dismissed.append(route.presentationKey) }
}

/// Pushes and presents one flow's screens. What to run when a route goes away is kept per route until the router
/// dismisses it; a sheet the user swipes down never reaches the router (UIKit tells the presentation delegate), so its
/// completion stays behind with whatever it captured.
final class AppRouter<Route: AppRoute> {
    private(set) var stack: [Screen] = []
    private(set) var presented: Screen?
    private var completions: [String: () -> Void] = [:]
    private let history = RouteHistory()

    func trigger(_ route: Route, screen: Screen, completion: @escaping () -> Void) {
        if route.isModal { presented = screen } else { stack.append(screen) }
        // As a navigation delegate would on every appearance: a cached screen shown again brings its flow back.
        Tracer.shared.screenAppeared(screen)
        let history = history
        // Made here, in the generic method: the closure captures the route at its generic type.
        completions[route.presentationKey] = { [route] in
            history.record(route)
            completion()
        }
    }

    func dismiss(_ route: Route) {
        let screen = route.isModal ? presented : stack.popLast()
        if route.isModal { presented = nil }
        if let screen { Tracer.shared.screenLeft(screen) }
        completions.removeValue(forKey: route.presentationKey)?()
    }

    /// The user swiped the presented sheet down: the screen goes and its presenter hears of it, this router does not.
    func presentedSheetWasSwipedDown() {
        guard let sheet = presented else { return }
        presented = nil
        Tracer.shared.screenLeft(sheet)
        sheet.onInteractiveDismiss?()
    }
}
