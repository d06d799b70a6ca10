import CoordinatorTrace

enum HomeScreenAction {
    case openRoom(String)
    case showRoomDetails(String)
    case openSettings
}

/// The sidebar's home list.
final class HomeScreenCoordinator: CoordinatorProtocol {
    let actionsSubject = ActionsSubject<HomeScreenAction>()

    func start() {}

    func toPresentable() -> HostedView { HostedView("home", screenOf: self) }
}

enum RoomScreenAction { case leftRoom }

/// A room's timeline, pushed on the detail stack.
final class RoomScreenCoordinator: CoordinatorProtocol {
    let roomID: String
    let actionsSubject = ActionsSubject<RoomScreenAction>()

    init(roomID: String) {
        self.roomID = roomID
    }

    func start() {}

    func toPresentable() -> HostedView { HostedView("room \(roomID)", screenOf: self) }
}

/// What a room's details screen talks to.
final class RoomProxy {
    let roomID: String

    init(roomID: String) {
        self.roomID = roomID
    }
}

enum RoomDetailsAction { case refresh, dismiss }

/// The details screen's view model: it listens to its own actions, as Matrix clients' view models do.
final class RoomDetailsViewModel {
    let roomProxy: RoomProxy
    let actionsSubject = ActionsSubject<RoomDetailsAction>()
    private var cancellables: [Cancellable] = []
    private(set) var refreshes = 0

    /// `weakly` is the fix: the sink's `[weak self]`.
    init(roomProxy: RoomProxy, weakly: Bool) {
        self.roomProxy = roomProxy
        if weakly {
            actionsSubject.sink { [weak self] action in self?.handle(action) }.store(in: &cancellables)
        } else {
            // The bug: the subject keeps this closure, the closure keeps the view model, the view model the subject.
            actionsSubject.sink { action in self.handle(action) }.store(in: &cancellables)
        }
    }

    private func handle(_ action: RoomDetailsAction) {
        if action == .refresh { refreshes += 1 }
    }
}

/// A room's details, pushed on the sidebar stack; its view model should die with it.
final class RoomDetailsScreenCoordinator: CoordinatorProtocol {
    private let viewModel: RoomDetailsViewModel

    init(roomID: String, fixed: Bool) {
        viewModel = RoomDetailsViewModel(roomProxy: RoomProxy(roomID: roomID), weakly: fixed)
    }

    func start() {
        CoordinatorTrace.watch(viewModel, belongsTo: self)
        viewModel.actionsSubject.send(.refresh)
    }

    func toPresentable() -> HostedView { HostedView("room details", screenOf: self) }
}

/// The settings screen, the root of the settings flow's sheet.
final class SettingsScreenCoordinator: CoordinatorProtocol {
    func start() {}

    func toPresentable() -> HostedView { HostedView("settings", screenOf: self) }
}
