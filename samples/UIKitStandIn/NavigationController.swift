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

    /// Pushes `screen` on top of the stack.
    public func push(_ screen: ViewController) {
        screen.navigationController = self
        viewControllers.append(screen)
    }

    /// Pops the top screen (never the root) and returns it; with no other reference left it deallocates.
    @discardableResult
    public func pop() -> ViewController? {
        guard viewControllers.count > 1 else { return nil }
        let screen = viewControllers.removeLast()
        screen.navigationController = nil
        return screen
    }

    /// The user taps the back button: the top screen is popped and nobody is told.
    public func tapBack() {
        pop()
    }
}
