import CoordinatorLens
import CoordinatorLensPage
import NIOCore
import NIOPosix

/// `coordlens view`: the inspector page over recorded sessions, judged as `check` judges them, with no hook port.
package final class RecordingViewer: Sendable {
    /// The sessions shown, in the order given.
    package let sessions: LiveSessions
    private let page: PageServer
    private let executors = ServerExecutors()

    /// Holds `logs` (a run id seen twice keeps its first session) for a page with grace period `grace`, printing
    /// call sites as `paths` does and opening them with `editorURL`; `context` (a baseline, a history) marks each leak known or new; with `token`, only
    /// who brings it may use the page; `limits` bound its connections, `aliveLimits` add counts (`--reusable`, …) to
    /// every judgement, and `log` hears when a bound is reached.
    package init(
        logs: [SessionLog], grace: Double, paths: SourcePaths = SourcePaths(), editorURL: String? = nil, context: LeakContext? = nil,
        token: AccessToken? = nil, limits: PageLimits = PageLimits(), aliveLimits: [AliveLimit] = [],
        log: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        LiveSessions.limitAllocatorArenas()
        LiveSessions.mapLargeBlocksApart()
        sessions = LiveSessions(maxSessions: Int.max, aliveLimits: aliveLimits, grace: grace)
        for log in logs { _ = sessions.load(log) }
        let budget = DescriptorBudget.current(reserved: ListenOptions().reservedDescriptors, pageLimit: limits.maxConnections)
        page = PageServer(
            sessions: sessions, grace: grace, paths: paths, editorURL: editorURL, context: context, token: token, limits: limits,
            connectionLimit: budget.pageConnections, executors: executors, log: log
        )
    }

    /// Binds the page's port (0: a free one); returns the port bound.
    package func start(host: String, port: Int) async throws -> Int {
        do {
            return try await page.start(host: host, port: port)
        } catch {
            throw ListenError.binding("serve the inspector page", host: host, port: port, flag: "--http-port", error)
        }
    }

    /// Calls `handler` at each SIGINT or SIGTERM until the server stops (then they take their default action again).
    package func onInterrupt(_ handler: @escaping @Sendable () -> Void) async throws {
        try await executors.onInterrupt(handler)
    }

    /// Closes the page's port and its connections.
    package func stop() async {
        await page.stop()
        await executors.shutdown()
    }
}
