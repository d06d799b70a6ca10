#if canImport(UIKit) && canImport(ObjectiveC)
import ObjectiveC
import UIKit

/// Sees bound view controllers leave the screen by themselves, as MLeaksFinder does: `viewDidDisappear` while the
/// screen, a container it sits in, or a screen presenting it is being dismissed or popped, or once it hangs in no
/// hierarchy at all (a replaced window root). A screen that is only covered, or a tab no longer selected, disappears
/// with none of these, and is left alone.
///
/// A screen that left and appears again (`viewDidAppear`, a cached view controller presented anew) brings its
/// coordinators back, shown again, as MLeaksFinder clears its flag on appear.
///
/// These are the hook's method swaps, `viewDidDisappear(_:)` and `viewDidAppear(_:)`: made the first time a view
/// controller is bound in a session with `TraceOptions.detectsScreenDepartures`, they change nothing for screens no
/// coordinator is bound to.
enum ScreenDepartureWatch {
    /// The associated-object key of a screen's route; allocated once, never freed.
    nonisolated(unsafe) static let routeKey = UnsafeRawPointer(UnsafeMutableRawPointer.allocate(byteCount: 1, alignment: 1))

    /// The associated-object key of the flag a screen carries between its departure and its next appearance.
    nonisolated(unsafe) static let leftKey = UnsafeRawPointer(UnsafeMutableRawPointer.allocate(byteCount: 1, alignment: 1))

    /// Exchanges `viewDidDisappear(_:)` and `viewDidAppear(_:)` for the reporting ones, once per process.
    static let installed: Bool = {
        exchange(#selector(UIViewController.viewDidAppear(_:)), #selector(UIViewController.coordinatorTraceViewDidAppear(_:)))
            && exchange(#selector(UIViewController.viewDidDisappear(_:)), #selector(UIViewController.coordinatorTraceViewDidDisappear(_:)))
    }()

    private static func exchange(_ original: Selector, _ reporting: Selector) -> Bool {
        guard let originalMethod = class_getInstanceMethod(UIViewController.self, original),
            let reportingMethod = class_getInstanceMethod(UIViewController.self, reporting)
        else { return false }
        method_exchangeImplementations(originalMethod, reportingMethod)
        return true
    }

    /// Routes `screen`'s departures to `route`'s session; the latest bind wins.
    static func watch(_ screen: AnyObject, route: ProbeRoute) {
        guard let screen = screen as? UIViewController, installed else { return }
        objc_setAssociatedObject(screen, routeKey, route, .OBJC_ASSOCIATION_RETAIN)
    }
}

extension UIViewController {
    /// After the exchange this runs as `viewDidDisappear(_:)`, and the call inside it runs UIKit's original.
    @objc func coordinatorTraceViewDidDisappear(_ animated: Bool) {
        coordinatorTraceViewDidDisappear(animated)
        guard let route = objc_getAssociatedObject(self, ScreenDepartureWatch.routeKey) as? ProbeRoute,
            coordinatorTraceHasLeft
        else { return }
        objc_setAssociatedObject(self, ScreenDepartureWatch.leftKey, true, .OBJC_ASSOCIATION_RETAIN)
        route.screenLeft(self)
    }

    /// After the exchange this runs as `viewDidAppear(_:)`: a screen that left and is shown again brings its
    /// coordinators back; every other appearance costs two associated-object reads.
    @objc func coordinatorTraceViewDidAppear(_ animated: Bool) {
        coordinatorTraceViewDidAppear(animated)
        guard objc_getAssociatedObject(self, ScreenDepartureWatch.leftKey) != nil,
            let route = objc_getAssociatedObject(self, ScreenDepartureWatch.routeKey) as? ProbeRoute
        else { return }
        objc_setAssociatedObject(self, ScreenDepartureWatch.leftKey, nil, .OBJC_ASSOCIATION_RETAIN)
        route.screenAppeared(self)
    }

    /// Dismissed or popped, itself or with a container or presenter that is; or in no hierarchy any more.
    private var coordinatorTraceHasLeft: Bool {
        var container: UIViewController? = self
        while let screen = container {
            if screen.isBeingDismissed || screen.isMovingFromParent { return true }
            var presenter = screen.presentingViewController
            while let below = presenter {
                if below.isBeingDismissed { return true }
                presenter = below.presentingViewController
            }
            container = screen.parent
        }
        return parent == nil && presentingViewController == nil && presentedViewController == nil
            && viewIfLoaded?.window == nil
    }
}
#endif
