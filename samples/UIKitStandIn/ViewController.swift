/// A screen, as UIKit's `UIViewController` is one: it holds what it presents and, like an associated object,
/// anything attached to it; both go when the screen deallocates.
open class ViewController {
    /// Called with every screen that disappears, as method swaps of `viewDidDisappear(_:)` are on UIKit (the hook's
    /// own watch, RxFlow's `rx.dismissed`); here samples and libraries add them with `observeDisappearance`.
    nonisolated(unsafe) private static var disappearanceObservers: [(ViewController) -> Void] = []

    /// Adds `observer` to every screen's `viewDidDisappear`, for the rest of the process.
    public static func observeDisappearance(_ observer: @escaping (ViewController) -> Void) {
        disappearanceObservers.append(observer)
    }

    /// What the screen shows, for logs and pictures.
    public let title: String
    /// The screen presented modally over this one; held strongly, as UIKit's presenter holds it.
    public private(set) var presentedViewController: ViewController?
    /// The screen this one is presented over.
    public private(set) weak var presentingViewController: ViewController?
    /// The navigation stack this screen is on.
    public internal(set) weak var navigationController: NavigationController?
    /// The tab container this screen is a tab of.
    public internal(set) weak var tabBarController: TabBarController?
    /// The window this screen fills, while it is the window's root.
    public internal(set) weak var window: Window?
    /// True during `viewDidDisappear` while this screen is being dismissed, as UIKit's `isBeingDismissed`.
    public private(set) var isBeingDismissed = false
    /// True during `viewDidDisappear` while this screen is being popped or taken out of its container, as UIKit's
    /// `isMovingFromParent`.
    public internal(set) var isMovingFromParent = false
    private var attachments: [AnyObject] = []

    public init(title: String) {
        self.title = title
    }

    /// The container this screen sits in: its navigation stack or its tab container.
    public var parent: ViewController? { navigationController ?? tabBarController }

    /// UIKit calls this once the screen has gone from view, for whatever reason: covered, another tab selected,
    /// dismissed, popped. Containers pass it on to the screen they show.
    open func viewDidDisappear() {
        for observer in ViewController.disappearanceObservers { observer(self) }
    }

    /// Presents `screen` modally over this one; this screen (full-screen presentation) disappears under it.
    public func present(_ screen: ViewController) {
        precondition(presentedViewController == nil, "\(title) already presents \(presentedViewController!.title)")
        presentedViewController = screen
        screen.presentingViewController = self
        viewDidDisappear()
    }

    /// Dismisses what this screen presents (or, called on the presented screen, the screen itself), then runs
    /// `completion`: the path code takes, so whoever dismisses can tell whoever needs to know.
    public func dismiss(completion: (() -> Void)? = nil) {
        let presenter = presentedViewController == nil ? presentingViewController : self
        presenter?.releasePresented()
        completion?()
    }

    /// The user swipes the presented screen down: it goes away and nobody is told, as with a sheet whose
    /// presentation controller has no delegate.
    public func swipeDown() {
        presentingViewController?.releasePresented()
    }

    /// Keeps `object` alive exactly as long as this screen, like `objc_setAssociatedObject` with a retain policy.
    public func attach(_ object: AnyObject) {
        attachments.append(object)
    }

    /// UIKit dismisses the whole chain above this screen: each screen in it disappears, the top one first, while
    /// the one this screen presents is being dismissed.
    private func releasePresented() {
        guard let presented = presentedViewController else { return }
        var chain: [ViewController] = []
        var next: ViewController? = presented
        while let screen = next {
            chain.append(screen)
            next = screen.presentedViewController
        }
        presented.isBeingDismissed = true
        for screen in chain.reversed() { screen.viewDidDisappear() }
        presented.isBeingDismissed = false
        presented.presentingViewController = nil
        presentedViewController = nil
    }
}
