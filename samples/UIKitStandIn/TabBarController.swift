/// A tab container, as `UITabBarController` is one: it holds every tab's screen strongly.
open class TabBarController: ViewController {
    /// One screen per tab, usually a navigation stack. A tab that is replaced moves out of the container.
    public var viewControllers: [ViewController] = [] {
        didSet {
            let shown = oldValue.indices.contains(selectedIndex) ? oldValue[selectedIndex] : nil
            oldValue.forEach { $0.tabBarController = nil }
            viewControllers.forEach { $0.tabBarController = self }
            replacingTabs = true
            selectedIndex = min(selectedIndex, max(0, viewControllers.count - 1))
            replacingTabs = false
            if let shown, !viewControllers.contains(where: { $0 === shown }) {
                shown.isMovingFromParent = true
                shown.viewDidDisappear()
                shown.isMovingFromParent = false
            }
        }
    }
    /// The tab on screen; selecting another one makes this one disappear, nothing more.
    public var selectedIndex = 0 {
        didSet {
            guard !replacingTabs, oldValue != selectedIndex, viewControllers.indices.contains(oldValue) else { return }
            viewControllers[oldValue].viewDidDisappear()
        }
    }

    private var replacingTabs = false

    public override init(title: String = "Tabs") {
        super.init(title: title)
    }

    /// The screen of the selected tab.
    public var selectedViewController: ViewController? {
        viewControllers.indices.contains(selectedIndex) ? viewControllers[selectedIndex] : nil
    }

    /// The container disappears with the tab it shows.
    open override func viewDidDisappear() {
        super.viewDidDisappear()
        selectedViewController?.viewDidDisappear()
    }
}
