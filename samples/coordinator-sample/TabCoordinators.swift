import UIKitStandIn

/// The feed tab: a list whose rows push a detail screen.
final class FeedCoordinator: NavigationCoordinator {
    let navigationController = NavigationController(title: "Feed")
    let childCoordinators: [any Coordinator] = []

    func start() {
        navigationController.push(ListViewController(title: "Feed") { [unowned self] row in showDetail(row) })
    }

    private func showDetail(_ row: Int) {
        navigationController.push(DetailViewController(title: "Post \(row)"))
    }
}

/// The search tab: results whose rows push a detail screen.
final class SearchCoordinator: NavigationCoordinator {
    let navigationController = NavigationController(title: "Search")
    let childCoordinators: [any Coordinator] = []

    func start() {
        navigationController.push(ListViewController(title: "Search") { [unowned self] row in showDetail(row) })
    }

    private func showDetail(_ row: Int) {
        navigationController.push(DetailViewController(title: "Result \(row)"))
    }
}
