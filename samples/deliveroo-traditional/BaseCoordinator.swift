import UIKitStandIn

/// The app's coordinator base in Deliveroo's traditional shape: a parent stores each child it starts and frees it
/// when the child says `didFinish()`.
class BaseCoordinator {
    var childCoordinators: [BaseCoordinator] = []
    weak var parentCoordinator: BaseCoordinator?
    let navigationController: NavigationController

    init(navigationController: NavigationController) {
        self.navigationController = navigationController
    }

    /// Shows the coordinator's first screen.
    func start() {}

    // Each method takes its caller's call site and passes it on, so the events name the app's line, not this file.

    /// Keeps `coordinator` as a child until it finishes.
    func store(
        coordinator: BaseCoordinator,
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function, filePath: StaticString = #filePath
    ) {
        childCoordinators.append(coordinator)
        coordinator.parentCoordinator = self
        traceStored(coordinator, file: file, line: line, function: function, filePath: filePath)
    }

    /// Lets go of a finished child.
    func free(
        coordinator: BaseCoordinator,
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function, filePath: StaticString = #filePath
    ) {
        childCoordinators.removeAll { $0 === coordinator }
        traceFreed(coordinator, file: file, line: line, function: function, filePath: filePath)
    }

    /// Tells the parent this flow is over, so it frees this coordinator.
    func didFinish(
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function, filePath: StaticString = #filePath
    ) {
        // The classic guard: a coordinator with children still open refuses to finish, and nobody asks it again.
        guard childCoordinators.isEmpty else { return }
        parentCoordinator?.free(coordinator: self, file: file, line: line, function: function, filePath: filePath)
    }

    /// Pushes the screen this coordinator drives.
    func show(
        _ screen: ViewController,
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function, filePath: StaticString = #filePath
    ) {
        navigationController.push(screen)
        traceShows(screen, file: file, line: line, function: function, filePath: filePath)
    }

    /// Presents the screen this coordinator drives as a sheet over the navigation stack.
    func present(
        _ screen: ViewController,
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function, filePath: StaticString = #filePath
    ) {
        navigationController.present(screen)
        traceShows(screen, file: file, line: line, function: function, filePath: filePath)
    }
}
