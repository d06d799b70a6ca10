/// A navigation stack, as `UINavigationController` is one: it holds every screen on it strongly.
open class NavigationController: ViewController {
    /// The stack, bottom first.
    public private(set) var viewControllers: [ViewController] = []

    public init(root: ViewController? = nil, title: String = "Navigation") {
        super.init(title: title)
        if let root { push(root) }
    }

    /// The screen on top.
    public var topViewController: ViewController? { viewControllers.last }

    /// Pushes `screen` on top of the stack; the screen below disappears under it.
    public func push(_ screen: ViewController) {
        let covered = topViewController
        screen.navigationController = self
        viewControllers.append(screen)
        covered?.viewDidDisappear()
    }

    /// Pops the top screen (never the root) and returns it; with no other reference left it deallocates.
    @discardableResult
    public func pop() -> ViewController? {
        guard viewControllers.count > 1 else { return nil }
        let screen = viewControllers.removeLast()
        screen.isMovingFromParent = true
        screen.viewDidDisappear()
        screen.isMovingFromParent = false
        screen.navigationController = nil
        return screen
    }

    /// Replaces the whole stack, as `setViewControllers(_:animated:)` does: the old top screen moves out of the
    /// stack, unless it stays in the new one.
    public func setViewControllers(_ screens: [ViewController]) {
        let oldTop = topViewController
        let leaving = viewControllers.filter { old in !screens.contains { $0 === old } }
        viewControllers = screens
        screens.forEach { $0.navigationController = self }
        if let oldTop, leaving.contains(where: { $0 === oldTop }) {
            oldTop.isMovingFromParent = true
            oldTop.viewDidDisappear()
            oldTop.isMovingFromParent = false
        }
        leaving.forEach { $0.navigationController = nil }
    }

    /// The user taps the back button: the top screen is popped and nobody is told.
    public func tapBack() {
        pop()
    }

    /// The stack disappears with the screen it shows.
    open override func viewDidDisappear() {
        super.viewDidDisappear()
        topViewController?.viewDidDisappear()
    }
}
