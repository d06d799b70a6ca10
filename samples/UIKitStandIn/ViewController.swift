/// A screen, as UIKit's `UIViewController` is one: it holds what it presents and, like an associated object,
/// anything attached to it; both go when the screen deallocates.
open class ViewController {
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
    private var attachments: [AnyObject] = []

    public init(title: String) {
        self.title = title
    }

    /// Presents `screen` modally over this one.
    public func present(_ screen: ViewController) {
        precondition(presentedViewController == nil, "\(title) already presents \(presentedViewController!.title)")
        presentedViewController = screen
        screen.presentingViewController = self
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

    private func releasePresented() {
        presentedViewController?.presentingViewController = nil
        presentedViewController = nil
    }
}
