import OpenCombine

/// The app's root: it owns what the whole session shares, and the tab bar.
final class AppCoordinator: BaseCoordinator {
    let environment = AppEnvironment(session: UserSession(userID: "@ada:example.org"))
    private(set) var tabBar: TabBarCoordinator?

    func start() {
        tracer.added(self, to: nil)
        // The tab bar adds its tabs to itself as it is made, before it is ours: the hook meets the children first.
        let tabBar = TabBarCoordinator(environment: environment)
        addChild(tabBar)
        self.tabBar = tabBar
    }
}

final class TabBarCoordinator: BaseCoordinator {
    let home: HomeFlowCoordinator
    let profile = ProfileFlowCoordinator(title: "Profile")
    private let screen = Screen(title: "Tabs")

    init(environment: AppEnvironment) {
        home = HomeFlowCoordinator(environment: environment)
        super.init()
        addChild(home)
        addChild(profile)
        tracer.bind(self, to: screen)
        home.start()
        profile.start()
    }
}

/// Home: a room list, rooms pushed over it, a composer, a cached search sheet and a settings sheet.
final class HomeFlowCoordinator: BaseCoordinator {
    let viewModel = HomeScreenViewModel()
    let router = AppRouter<HomeRoute>()
    private let environment: AppEnvironment
    private let screen = Screen(title: "Home")
    /// One search flow for the whole session, kept with its screen and shown again: cheaper than rebuilding its index.
    private(set) lazy var search = SearchCoordinator(title: "Search")
    private var cancellables = Set<AnyCancellable>()

    init(environment: AppEnvironment) { self.environment = environment }

    func start() {
        tracer.bind(self, to: screen)
        viewModel.actionsPublisher.sink { [weak self] action in self?.handle(action) }.store(in: &cancellables)
        viewModel.$unreadCount.sink { [weak self] count in self?.environment.userInfo["unread"] = count }.store(in: &cancellables)
    }

    private func handle(_ action: HomeScreenAction) {
        switch action {
        case .openRoom(let id): start(RoomCoordinator(title: "Room \(id)"), at: .room)
        case .compose: start(ComposerCoordinator(homeViewModel: viewModel), at: .composer)
        case .search: showSearch()
        case .settings: presentSettings()
        case .members: start(MembersCoordinator(title: "Members"), at: .members)
        case .shareLocation: start(LocationSharingCoordinator(title: "Live location"), at: .location)
        case .mention: break  // The composer's business, when one is open.
        }
    }

    /// Pushes a flow that closes itself; the router's completion lets it go.
    private func start(_ flow: ChildFlowCoordinator, at route: HomeRoute) {
        addChild(flow)
        flow.actionsPublisher.sink { [weak self] _ in self?.router.dismiss(route) }.store(in: &cancellables)
        router.trigger(route, screen: flow.screen) { [weak self, weak flow] in
            guard let self, let flow else { return }
            removeChild(flow)
        }
        flow.start()
    }

    private func showSearch() {
        if !childCoordinators.contains(where: { $0 === search }) {
            addChild(search)
            search.start()
            search.actionsPublisher.sink { [weak self] _ in self?.router.dismiss(.search) }.store(in: &cancellables)
        }
        router.trigger(.search, screen: search.screen) { [weak self] in self?.environment.analytics.track("search closed") }
    }

    private func presentSettings() {
        let settings = SettingsFlowCoordinator(title: "Settings")
        addChild(settings)
        settings.actionsPublisher.sink { [weak self, weak settings] _ in
            guard let self, let settings else { return }
            removeChild(settings)
        }.store(in: &cancellables)
        // The completion takes `settings` strongly, unlike the sink above, and runs only when the router dismisses the
        // sheet: a swipe-down leaves it in the router.
        router.trigger(.settings, screen: settings.screen) { [weak self, settings] in
            self?.environment.analytics.track("settings closed with \(settings.changes) changes")
        }
        settings.start()
    }
}

final class RoomCoordinator: ChildFlowCoordinator {}

/// The app's pull-to-refresh control sends its action to whichever list registered last: a static, as in apps that
/// share one refresh control between tabs.
enum PullToRefresh {
    nonisolated(unsafe) static var action: (() -> Void)?
}

/// A room's member list: it registers its reload as the refresh action and never takes it back, so the static keeps
/// the flow after Back (the real fix captured the list's store weakly).
final class MembersCoordinator: ChildFlowCoordinator {
    private(set) var reloads = 0

    override func start() {
        super.start()
        PullToRefresh.action = { self.reloads += 1 }
    }
}

/// Live location sharing: a task follows the location updates for as long as the flow is shown, and nothing cancels it
/// when the flow closes, so the running task keeps the flow (the real fix kept the task and cancelled it on close).
final class LocationSharingCoordinator: ChildFlowCoordinator {
    private(set) var updates = 0

    override func start() {
        super.start()
        let locations = LocationUpdates.stream
        // The app's coordinators are not Sendable; its tasks take them as this one does.
        nonisolated(unsafe) let flow = self
        Task { for await _ in locations { flow.updates += 1 } }
    }
}

/// Where the live location comes from: a stream that sends nothing and never finishes in this script.
enum LocationUpdates {
    static let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
}

/// Writes a message; names tapped on home go into the draft.
final class ComposerCoordinator: ChildFlowCoordinator {
    private let homeViewModel: HomeScreenViewModel
    private(set) var draft = ""

    init(homeViewModel: HomeScreenViewModel) {
        self.homeViewModel = homeViewModel
        super.init(title: "New message")
    }

    override func start() {
        super.start()
        // The handler takes `self` strongly, and the subscription is home's, which outlives this flow.
        homeViewModel.observeActions { action in
            if case .mention(let name) = action { self.draft += "@\(name) " }
        }
    }
}

final class SearchCoordinator: ChildFlowCoordinator {
    func userTappedCancel() { actionsSubject.send(.closeRequested) }
}

final class SettingsFlowCoordinator: ChildFlowCoordinator {
    private(set) var changes = 0

    override func start() {
        super.start()
        screen.onInteractiveDismiss = { [weak self] in self?.close() }
    }
}

final class ProfileFlowCoordinator: ChildFlowCoordinator {
    let viewModel = ProfileViewModel()
}
