/// The app's window, as `UIWindow` is one: it holds its root screen strongly; the app holds the window.
public final class Window {
    /// The screen filling the window; replacing it lets the old one go.
    public var rootViewController: ViewController?

    public init() {}
}
