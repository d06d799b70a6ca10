import UIKitStandIn

/// The root. Every flow it starts sits in a slot of its own, set when the segue to that flow fires.
final class AppCoordinator: Coordinator {
    let welcome = WelcomeViewController()
    private let window: Window

    /// The login flow's slot: nothing ever sets it back to nil.
    private(set) var loginCoordinator: LoginCoordinator? {
        didSet { traceSlot(from: oldValue, to: loginCoordinator) }
    }

    init(window: Window) {
        self.window = window
    }

    func start() {
        traceAsRoot()
        window.rootViewController = welcome
        traceShows(welcome)
    }

    /// The user taps Log in: the segue fires, this coordinator prepares it, and the destination is presented.
    func performLoginSegue() {
        let segue = Segue(identifier: "showLogin", destination: LoginViewController())
        prepare(for: segue)
        welcome.present(segue.destination)
    }

    private func prepare(for segue: Segue) {
        switch segue.identifier {
        case "showLogin":
            guard let screen = segue.destination as? LoginViewController else { return }
            loginCoordinator = LoginCoordinator(screen: screen)
            loginCoordinator?.start()
        default:
            break
        }
    }
}

/// The login sheet. Cancelling dismisses the sheet; the coordinator stays in its slot until the slot is refilled.
final class LoginCoordinator: Coordinator {
    private weak var screen: LoginViewController?

    init(screen: LoginViewController) {
        self.screen = screen
    }

    func start() {
        guard let screen else { return }
        screen.cancel = { [weak self] in self?.cancel() }
        traceShows(screen)
    }

    private func cancel() {
        screen?.dismiss()
    }
}
