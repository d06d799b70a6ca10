/// A tab container, as `UITabBarController` is one: it holds every tab's screen strongly.
open class TabBarController: ViewController {
    /// One screen per tab, usually a navigation stack.
    public var viewControllers: [ViewController] = [] {
        didSet {
            oldValue.forEach { $0.tabBarController = nil }
            viewControllers.forEach { $0.tabBarController = self }
            selectedIndex = min(selectedIndex, max(0, viewControllers.count - 1))
        }
    }
    /// The tab on screen.
    public var selectedIndex = 0

    public override init(title: String = "Tabs") {
        super.init(title: title)
    }

    /// The screen of the selected tab.
    public var selectedViewController: ViewController? {
        viewControllers.indices.contains(selectedIndex) ? viewControllers[selectedIndex] : nil
    }
}
