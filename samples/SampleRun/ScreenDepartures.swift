import CoordinatorTrace
import UIKitStandIn

/// On UIKit the hook sees bound view controllers leave by itself (a method swap of `viewDidDisappear`); the stand-in
/// has no Objective-C runtime, so the samples install the same rule through its disappearance callback. The rule
/// is the hook's, written again for the stand-in's types: a screen that disappears while it, a container it sits in
/// or a screen presenting it is being dismissed or popped, or that hangs in no hierarchy any more, has left; one
/// that is only covered, or a tab no longer selected, has not.
public enum ScreenDepartures {
    /// Reports every departure to the shared tracer, as the hook does on UIKit.
    public static func install() {
        ViewController.observeDisappearance { screen in
            if hasLeft(screen) { CoordinatorTrace.screenLeft(screen) }
        }
    }

    /// Whether `screen`, as it disappears, has left rather than been covered.
    public static func hasLeft(_ screen: ViewController) -> Bool {
        var container: ViewController? = screen
        while let current = container {
            if current.isBeingDismissed || current.isMovingFromParent { return true }
            var presenter = current.presentingViewController
            while let below = presenter {
                if below.isBeingDismissed { return true }
                presenter = below.presentingViewController
            }
            container = current.parent
        }
        return screen.parent == nil && screen.presentingViewController == nil && screen.presentedViewController == nil
            && screen.window == nil
    }
}
