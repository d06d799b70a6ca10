/// The app's window, as `UIWindow` is one: it holds its root screen strongly; the app holds the window.
public final class Window {
    /// The screen filling the window; replacing it lets the old one go, and the old one disappears out of every
    /// hierarchy.
    public var rootViewController: ViewController? {
        didSet {
            guard let old = oldValue, old !== rootViewController else { return }
            old.window = nil
            old.viewDidDisappear()
        }
        willSet { newValue?.window = self }
    }

    public init() {}
}
