import CoordinatorTrace

/// What every coordinator in this app is: it starts, and gives the view that shows it.
protocol CoordinatorProtocol: AnyObject {
    func start()
    func toPresentable() -> HostedView
}

/// A screen coordinator on a stack, with what to call when it leaves: the stack holds the module, the module the
/// coordinator.
final class NavigationModule {
    let coordinator: any CoordinatorProtocol
    let dismissalCallback: (() -> Void)?

    init(_ coordinator: any CoordinatorProtocol, dismissalCallback: (() -> Void)? = nil) {
        self.coordinator = coordinator
        self.dismissalCallback = dismissalCallback
    }
}

/// A navigation stack coordinator: a root coordinator and pushed ones in modules, shown by a `StackHost` (its screen).
final class NavigationStackCoordinator: CoordinatorProtocol {
    let host: StackHost
    private(set) var rootModule: NavigationModule?
    private var stackModules: [NavigationModule] = []

    init(keepsPoppedItems: Bool) {
        host = StackHost(keepsPoppedItems: keepsPoppedItems)
    }

    func start() {}

    func toPresentable() -> HostedView { HostedView("stack", screenOf: self) }

    /// Apps fill a stack before they show it under its parent: the root's `add` comes before the stack's own.
    func setRootCoordinator(
        _ coordinator: any CoordinatorProtocol, file: StaticString = #fileID, line: UInt = #line,
        function: StaticString = #function, filePath: StaticString = #filePath
    ) {
        rootModule = NavigationModule(coordinator)
        CoordinatorTrace.added(coordinator, to: self, file: file, line: line, function: function, filePath: filePath)
        coordinator.start()
        host.setRoot(coordinator.toPresentable())
    }

    func push(
        _ coordinator: any CoordinatorProtocol, file: StaticString = #fileID, line: UInt = #line,
        function: StaticString = #function, filePath: StaticString = #filePath, dismissalCallback: (() -> Void)? = nil
    ) {
        let module = NavigationModule(coordinator, dismissalCallback: dismissalCallback)
        stackModules.append(module)
        CoordinatorTrace.added(coordinator, to: self, file: file, line: line, function: function, filePath: filePath)
        coordinator.start()
        host.push(module)
    }

    /// The user went back: the stack hears of it from its host, lets the module go and tells its owner.
    func userWentBack() {
        guard let module = host.pop() else { return }
        stackModules.removeAll { $0 === module }
        CoordinatorTrace.removed(module.coordinator, from: self)
        module.dismissalCallback?()
    }
}

/// A split view: a sidebar stack and a detail stack.
final class NavigationSplitCoordinator: CoordinatorProtocol {
    private(set) var sidebarCoordinator: NavigationStackCoordinator?
    private(set) var detailCoordinator: NavigationStackCoordinator?

    func start() {}

    func toPresentable() -> HostedView { HostedView("split", screenOf: self) }

    func setSidebarCoordinator(_ coordinator: NavigationStackCoordinator) {
        sidebarCoordinator = coordinator
        CoordinatorTrace.added(coordinator, to: self)
        CoordinatorTrace.bind(coordinator, to: coordinator.host)
    }

    func setDetailCoordinator(_ coordinator: NavigationStackCoordinator) {
        detailCoordinator = coordinator
        CoordinatorTrace.added(coordinator, to: self)
        CoordinatorTrace.bind(coordinator, to: coordinator.host)
    }
}

/// The app's root: what the window shows, with a sheet slot for flows presented over everything.
final class NavigationRootCoordinator: CoordinatorProtocol {
    private(set) var rootCoordinator: (any CoordinatorProtocol)?
    let sheet = SheetHost()

    func start() {
        CoordinatorTrace.added(self, to: nil)
    }

    func toPresentable() -> HostedView { HostedView("root", screenOf: self) }

    func setRootCoordinator(_ coordinator: any CoordinatorProtocol) {
        rootCoordinator = coordinator
        CoordinatorTrace.added(coordinator, to: self)
    }
}
