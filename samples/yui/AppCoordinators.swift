import UIKitStandIn

/// The root: the list screen in the window, from which the search and filter sheets open.
final class AppCoordinator: Coordinator {
    let root = ListViewController()

    func start(in window: Window) {
        window.rootViewController = root
        presentedScreen = root
        traceAsRoot()
    }

    /// Starts search, then adds it: the probe rides on its screen.
    func openSearch() {
        let search = SearchCoordinator(presenter: root)
        search.start()
        addChild(search)
    }

    /// Adds filter, then starts it: the screen does not exist yet when the probe would be attached.
    func openFilter() {
        let filter = FilterCoordinator(presenter: root)
        addChild(filter)
        filter.start()
    }
}

/// The search sheet.
final class SearchCoordinator: Coordinator {
    private unowned let presenter: ViewController

    init(presenter: ViewController) {
        self.presenter = presenter
    }

    override func start() {
        let screen = SearchViewController()
        presenter.present(screen)
        presentedScreen = screen
    }
}

/// The filter sheet.
final class FilterCoordinator: Coordinator {
    private unowned let presenter: ViewController

    init(presenter: ViewController) {
        self.presenter = presenter
    }

    override func start() {
        let screen = FilterViewController()
        presenter.present(screen)
        presentedScreen = screen
    }
}
