import CoordinatorTrace

/// The settings flow, presented as a sheet over everything; held in an optional property of the user session flow.
final class SettingsFlowCoordinator {
    private let root: NavigationRootCoordinator
    private(set) var screen: SettingsScreenCoordinator?

    init(root: NavigationRootCoordinator) {
        self.root = root
    }

    func start() {
        let screen = SettingsScreenCoordinator()
        self.screen = screen
        CoordinatorTrace.added(screen, to: self)
        screen.start()
        root.sheet.present(screen.toPresentable())
    }
}

/// A signed-in user's flows: a split of a sidebar (home, room details) and a detail stack (rooms), and the settings
/// flow in an optional property.
final class UserSessionFlowCoordinator {
    private let root: NavigationRootCoordinator
    private let fixed: Bool
    let split = NavigationSplitCoordinator()
    let sidebar: NavigationStackCoordinator
    let detail: NavigationStackCoordinator
    private(set) var settingsFlowCoordinator: SettingsFlowCoordinator?
    private var cancellables: [Cancellable] = []

    init(root: NavigationRootCoordinator, fixed: Bool) {
        self.root = root
        self.fixed = fixed
        sidebar = NavigationStackCoordinator(keepsPoppedItems: false)
        // The leaking build's detail stack keeps the items it pops.
        detail = NavigationStackCoordinator(keepsPoppedItems: !fixed)
    }

    func start() {
        // The stacks are filled first and shown under the split afterwards, as the app does.
        let home = HomeScreenCoordinator()
        sidebar.setRootCoordinator(home)
        home.actionsSubject.sink { [weak self] action in self?.handle(action) }.store(in: &cancellables)
        CoordinatorTrace.added(split, to: self)
        split.setSidebarCoordinator(sidebar)
        split.setDetailCoordinator(detail)
    }

    private func handle(_ action: HomeScreenAction) {
        switch action {
        case .openRoom(let id):
            let room = RoomScreenCoordinator(roomID: id)
            room.actionsSubject.sink { [weak self] _ in self?.detail.userWentBack() }.store(in: &cancellables)
            detail.push(room)
        case .showRoomDetails(let id):
            sidebar.push(RoomDetailsScreenCoordinator(roomID: id, fixed: fixed))
        case .openSettings:
            let flow = SettingsFlowCoordinator(root: root)
            settingsFlowCoordinator = flow
            CoordinatorTrace.added(flow, to: self)
            flow.start()
        }
    }

    /// The settings sheet was swiped down: the leaking build's `onDismiss` does nothing.
    func settingsSheetDismissed() {
        guard fixed, let flow = settingsFlowCoordinator else { return }
        CoordinatorTrace.removed(flow, from: self)
        settingsFlowCoordinator = nil
    }
}
