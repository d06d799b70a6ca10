#if canImport(SwiftUI)
import SwiftUI

@available(iOS 14.0, macOS 11.0, tvOS 14.0, watchOS 7.0, *)
extension View {
    /// Makes this view `coordinator`'s screen, for SwiftUI navigation with no view controller of yours (a
    /// `NavigationStack` path, a sheet, a full-screen cover): put it on the view the coordinator returns. The
    /// coordinator is dismissed when SwiftUI lets go of the view (popped, dismissed, swiped down), see `HostedScreen`.
    /// Where you make a `UIHostingController` yourself, bind that controller instead (`Tracer.bind`).
    public func coordinatorScreen(
        _ coordinator: AnyObject, tracer: Tracer = .shared,
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function,
        filePath: StaticString = #filePath
    ) -> some View {
        modifier(
            CoordinatorScreenModifier(
                coordinator: coordinator, tracer: tracer, file: file, line: line, function: function, filePath: filePath))
    }
}

/// Keeps the view's `HostedScreen` in its state, so SwiftUI frees it with the view, and binds it on appearance.
@available(iOS 14.0, macOS 11.0, tvOS 14.0, watchOS 7.0, *)
private struct CoordinatorScreenModifier: ViewModifier {
    let coordinator: AnyObject
    let tracer: Tracer
    let file: StaticString
    let line: UInt
    let function: StaticString
    let filePath: StaticString
    @State private var screen = HostedScreen()

    func body(content: Content) -> some View {
        content.onAppear {
            screen.appeared(for: coordinator, tracer: tracer, file: file, line: line, function: function, filePath: filePath)
        }
    }
}
#endif
