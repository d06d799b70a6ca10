/// The hook's front door: start once with a sink, then report coordinator lifecycles from anywhere.
///
/// ```swift
/// CoordinatorTrace.start(app: "MyApp", sink: .tcp(port: 7420))
/// CoordinatorTrace.added(child, to: self)
/// CoordinatorTrace.bind(child, to: viewController)
/// ```
/// Every call before `start` or after `end` does nothing.
public enum CoordinatorTrace {
    /// Starts a session streaming to `sink`; a running session ends first.
    public static func start(app: String, sink: any TraceSink, options: TraceOptions = TraceOptions()) {
        Tracer.shared.start(app: app, sink: sink, options: options)
    }

    /// `child` joins the tree under `parent` (nil: a root); adding it again moves it.
    public static func added(
        _ child: AnyObject, to parent: AnyObject?,
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function,
        filePath: StaticString = #filePath
    ) {
        Tracer.shared.added(child, to: parent, file: file, line: line, function: function, filePath: filePath)
    }

    /// `object` should die with `coordinator`; judged like a coordinator once that one is done.
    public static func watch(
        _ object: AnyObject, belongsTo coordinator: AnyObject,
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function,
        filePath: StaticString = #filePath
    ) {
        Tracer.shared.watch(object, belongsTo: coordinator, file: file, line: line, function: function, filePath: filePath)
    }

    /// `child` was detached from `parent`.
    public static func removed(
        _ child: AnyObject, from parent: AnyObject?,
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function,
        filePath: StaticString = #filePath
    ) {
        Tracer.shared.removed(child, from: parent, file: file, line: line, function: function, filePath: filePath)
    }

    /// `coordinator` drives `screen`; the screen's deallocation counts as the coordinator's dismissal.
    public static func bind(
        _ coordinator: AnyObject, to screen: AnyObject,
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function,
        filePath: StaticString = #filePath
    ) {
        Tracer.shared.bind(coordinator, to: screen, file: file, line: line, function: function, filePath: filePath)
    }

    /// `coordinator`'s screen is gone or its flow finished.
    public static func dismissed(
        _ coordinator: AnyObject,
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function,
        filePath: StaticString = #filePath
    ) {
        Tracer.shared.dismissed(coordinator, file: file, line: line, function: function, filePath: filePath)
    }

    /// `screen` left the screen (dismissed, popped, replaced): the coordinators bound to it are dismissed, even
    /// while something still holds the screen.
    /// No call site is recorded unless `file` is given: the caller is usually a UI-layer bridge.
    public static func screenLeft(
        _ screen: AnyObject,
        file: StaticString? = nil, line: UInt = 0, function: StaticString? = nil,
        filePath: StaticString? = nil
    ) {
        Tracer.shared.screenLeft(screen, file: file, line: line, function: function, filePath: filePath)
    }

    /// `screen`, which left earlier, is on screen again: the coordinators it left with are shown again.
    public static func screenAppeared(_ screen: AnyObject) {
        Tracer.shared.screenAppeared(screen)
    }

    /// At most `count`'s number of its type may be alive at once; older ones beyond it are leaks.
    public static func expect(
        _ count: ExpectedCount,
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function,
        filePath: StaticString = #filePath
    ) {
        Tracer.shared.expect(count, file: file, line: line, function: function, filePath: filePath)
    }

    /// Looks for who holds each coordinator still alive past its grace period after it was done, sends and returns
    /// the paths; call it on the main thread.
    @discardableResult
    public static func searchRetainers() -> [RetainerPath] {
        Tracer.shared.searchRetainers()
    }

    /// A named checkpoint.
    public static func mark(
        _ label: String,
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function,
        filePath: StaticString = #filePath
    ) {
        Tracer.shared.mark(label, file: file, line: line, function: function, filePath: filePath)
    }

    /// Waits until everything recorded so far has reached the sink and, with `coordlens listen`, was confirmed by it
    /// (or counted dropped); false on timeout.
    @discardableResult
    public static func flush(timeout: Double = 2) -> Bool {
        Tracer.shared.flush(timeout: timeout)
    }

    /// Ends the session and closes the sink.
    public static func end() {
        Tracer.shared.end()
    }
}
