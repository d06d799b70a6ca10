/// Limits and timings of a tracing session; the defaults suit a debug build.
///
/// ```swift
/// CoordinatorTrace.start(app: "MyApp", sink: .file("run.ndjson"), options: TraceOptions(
///     grace: 2,                                    // as `coordlens check --grace`
///     sourceRoot: "/Users/me/src/MyApp"            // recordings name paths relative to the checkout
/// ))
/// ```
public struct TraceOptions: Sendable {
    /// Events the calling threads may queue before the writer takes them; past that they are counted and dropped.
    public var bufferCapacity: Int = 131_072
    /// Encoded lines kept while the sink cannot deliver (no inspector listening); past that they are dropped.
    public var backlogCapacity: Int = 10_000
    /// How often the writer wakes to encode, deliver and (where no probe reports deaths) sweep for freed objects.
    public var tickInterval: Double = 0.01
    /// How long `end()` waits for the sink to take what is left; a sink that takes nothing three times running is
    /// given up at once when no inspector was reached all session, so `end()` does not block the app for it; one that
    /// was reached is tried again until the time kept for the last lines (half of it, at most 1 s) is all that is left.
    public var endTimeout: Double = 2
    /// The longest `end()` waits for coordinators that are done (dismissed, removed, orphaned) but not yet freed, so
    /// that the stream carries final verdicts. Match it to `coordlens --grace` (default 2 s); 0 does not wait.
    public var grace: Double = 2
    /// While the app is quiet, a `heartbeat` goes out this often, so a run that is killed is judged at its last sign
    /// of life rather than at its last coordinator event.
    public var heartbeatInterval: Double = 1
    /// How many coordinators of a type may be alive at once; more is reported as a leak (`over-limit`). Sent when
    /// the session starts; `Tracer.expect` declares more later.
    public var expectedCounts: [ExpectedCount] = []
    /// Coordinator types the app keeps for reuse by design (a cached coordinator shown again later): up to each one's
    /// count that are done but still held by their parent are judged kept, not leaks. Sent when the session starts.
    public var reusableTypes: [ReusableType] = []
    /// On Apple platforms, a bound `UIViewController` that is dismissed or popped (`viewDidDisappear` while being
    /// dismissed or moving from its parent) dismisses its coordinators even while something still holds it. Turn
    /// it off to report departures yourself with `Tracer.screenLeft`. Elsewhere it has no effect.
    public var detectsScreenDepartures: Bool = true
    /// On Apple platforms, a bound view controller that left the screen is watched with its coordinator (as
    /// `Tracer.watch` would, and as MLeaksFinder watches every view controller that left): still alive past the grace
    /// after its coordinator is done, it is reported like a coordinator. Elsewhere it has no effect.
    public var watchesDepartedScreens: Bool = true
    /// `end()` looks for who holds each coordinator still alive past its grace period after it was done, and sends the
    /// path (`held`); bounded per coordinator, or off.
    public var retainerSearch = RetainerSearchOptions()
    /// The longest `end()` holds the main thread, in seconds, everything included: the grace wait is cut short, the
    /// search and the delivery get what is left, and the writer goes on delivering on its own thread after `end()`
    /// returns (an `exit` soon after still waits for it, within a second). Apple gives `applicationWillTerminate` and a
    /// scene entering the background a few seconds; off the main thread `end()` takes up to `endBudget`.
    public var mainThreadEndBudget: Double = 2
    /// A folder (the package's or project's root) taken off the front of every call site's `#filePath`, so a recording
    /// carries paths relative to it and names no machine's folders; `coordlens --source-root` joins them again.
    public var sourceRoot: String?

    /// Out-of-range values are clamped when a session starts, never fatal; times are in seconds.
    public init(
        bufferCapacity: Int = 131_072, backlogCapacity: Int = 10_000, tickInterval: Double = 0.01, endTimeout: Double = 2,
        grace: Double = 2, heartbeatInterval: Double = 1, expectedCounts: [ExpectedCount] = [],
        reusableTypes: [ReusableType] = [], detectsScreenDepartures: Bool = true, retainerSearch: RetainerSearchOptions = RetainerSearchOptions(),
        sourceRoot: String? = nil, watchesDepartedScreens: Bool = true, mainThreadEndBudget: Double = 2
    ) {
        self.bufferCapacity = bufferCapacity
        self.backlogCapacity = backlogCapacity
        self.tickInterval = tickInterval
        self.endTimeout = endTimeout
        self.grace = grace
        self.heartbeatInterval = heartbeatInterval
        self.expectedCounts = expectedCounts
        self.reusableTypes = reusableTypes
        self.detectsScreenDepartures = detectsScreenDepartures
        self.retainerSearch = retainerSearch
        self.sourceRoot = sourceRoot
        self.watchesDepartedScreens = watchesDepartedScreens
        self.mainThreadEndBudget = mainThreadEndBudget
    }

    /// The same options brought into a range the writer can run with: the hook must not crash or spin on a typo.
    var sanitized: TraceOptions {
        func clamp(_ value: Double, _ range: ClosedRange<Double>) -> Double {
            value.isFinite ? min(max(value, range.lowerBound), range.upperBound) : range.lowerBound
        }
        return TraceOptions(
            bufferCapacity: max(1, bufferCapacity),
            backlogCapacity: max(1, backlogCapacity),
            tickInterval: clamp(tickInterval, 0.001...1),
            endTimeout: clamp(endTimeout, 0...60),
            grace: clamp(grace, 0...60),
            heartbeatInterval: clamp(heartbeatInterval, 0.05...60),
            expectedCounts: expectedCounts,
            reusableTypes: reusableTypes,
            detectsScreenDepartures: detectsScreenDepartures,
            retainerSearch: RetainerSearchOptions(
                isEnabled: retainerSearch.isEnabled, maximumObjects: max(1, retainerSearch.maximumObjects),
                timeBudget: clamp(retainerSearch.timeBudget, 0...10), totalTimeBudget: clamp(retainerSearch.totalTimeBudget, 0...60),
                sendsKeyText: retainerSearch.sendsKeyText, searchesBack: retainerSearch.searchesBack),
            sourceRoot: sourceRoot.flatMap { $0.isEmpty ? nil : $0 },
            watchesDepartedScreens: watchesDepartedScreens,
            mainThreadEndBudget: clamp(mainThreadEndBudget, 0...60)
        )
    }

    var graceNanoseconds: UInt64 { UInt64(grace * 1e9) }

    /// The longest `end()` takes, in seconds: the grace wait, the retainer search's total budget, and delivery
    /// (`endTimeout`, plus up to two seconds for the writer to tell lost lines from held ones and finish a cut line).
    public var endBudget: Double {
        let options = sanitized
        return options.grace + (options.retainerSearch.isEnabled ? options.retainerSearch.totalTimeBudget : 0) + options.endTimeout + 2
    }
}
