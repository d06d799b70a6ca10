import CoordinatorLens
import CoordinatorLensPage
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix

/// The inspector page's HTTP listener: binds its port on the executors' page loop and serves `InspectorPage`
/// and `PageFeed` over it, holding at most `gate.limit` connections, each within `PageLimits` deadlines; beyond
/// loopback, connections that have not shown the token have a small share of their own (`PageGate`).
final class PageServer: Sendable {
    let feed: PageFeed
    private let page: InspectorPage
    let gate: PageGate
    private let summary: RefusalSummary
    private let requestTimeout: Double
    private let headTimeout: Double
    private let work: PageWork
    private let executors: ServerExecutors
    /// Answers built once and handed to every page that asks (`SharedAnswers`).
    let answers = SharedAnswers()
    /// The listening channel, set by `start` and taken by `stop`, which may run on other threads.
    private let channel = NIOLockedValueBox<(any Channel)?>(nil)

    /// Without `token`, anyone who can reach the port may use the page (loopback); with it, only who brings it.
    private let token: AccessToken?

    init(
        sessions: LiveSessions, grace: Double, paths: SourcePaths = SourcePaths(), editorURL: String? = nil,
        context: LeakContext? = nil, token: AccessToken? = nil, limits: PageLimits = PageLimits(), connectionLimit: Int,
        executors: ServerExecutors, summary: RefusalSummary? = nil, log: @escaping @Sendable (String) -> Void
    ) {
        self.token = token
        self.executors = executors
        work = PageWork(pool: executors.blocking, unshed: executors.judging)
        let feedTimers = executors.pageLoops.next()
        page = InspectorPage(sessions: sessions, grace: grace, paths: paths, editorURL: editorURL, context: context)
        // Event streams are one per open page: as many as a quarter of the page's connections, at least 64.
        feed = PageFeed(
            sessions: sessions, context: context, stallTimeout: limits.feedStallTimeout,
            maximumClients: max(PageFeed.minimumClients, min(1_024, connectionLimit / 4)), timers: feedTimers,
            judging: executors.judging, log: log)
        let summary = summary ?? RefusalSummary(timers: feedTimers, log: log)
        self.summary = summary
        gate = PageGate(
            limit: connectionLimit, waitingLimit: token == nil ? connectionLimit : PageGate.waitingShare(of: connectionLimit), summary: summary,
            log: log)
        requestTimeout = limits.requestTimeout
        headTimeout = limits.headTimeout
    }

    /// Binds `host:port` (0: a free port); returns the port bound.
    func start(host: String, port: Int) async throws -> Int {
        let (page, feed, work, token, answers) = (self.page, self.feed, self.work, self.token, self.answers)
        let (gate, summary, requestTimeout, headTimeout) = (self.gate, self.summary, self.requestTimeout, self.headTimeout)
        let bootstrap = ServerBootstrap(group: executors.pageLoops)
            // Hundreds of pages may connect at once: their connections wait in the kernel's queue for a moment, not refused.
            .serverChannelOption(.backlog, value: 256)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            // Out of file descriptors, accept fails at once on every try: pause instead of spinning.
            .serverChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(AcceptPauseHandler())
                }
            }
            .childChannelInitializer { channel in
                // Idle connections count too, and one past the limit is closed at once rather than left queued.
                guard gate.admit(channel) else {
                    return channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHandler(RefusedConnectionHandler())
                    }
                }
                channel.closeFuture.whenComplete { _ in gate.release(channel) }
                return channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline(withErrorHandling: true)
                    try channel.pipeline.syncOperations.addHandler(RequestDeadlineHandler(timeout: requestTimeout, headTimeout: headTimeout))
                    // An accepted connection's local port is the one the listener bound, 0 given or not.
                    let port = channel.localAddress?.port ?? -1
                    try channel.pipeline.syncOperations.addHandler(
                        PageRequestHandler(
                            page: page, feed: feed, hosts: HostCheck(port: port), access: PageAccess(token: token, port: port), work: work,
                            gate: gate, summary: summary, answers: answers
                        ))
                }
            }
        let channel = try await bootstrap.bind(host: host, port: port).get()
        self.channel.withLockedValue { $0 = channel }
        return channel.localAddress?.port ?? port
    }

    /// Lets go of what the page keeps about `runs` (evicted): replays and built answers.
    func forget(_ runs: Set<String>) {
        page.forget(runs)
        answers.removeAll()
    }

    /// Closes the port, then every open page connection; the executors are their owner's to end.
    func stop() async {
        let channel = self.channel.withLockedValue { channel in
            defer { channel = nil }
            return channel
        }
        try? await channel?.close()
        await gate.closeAll()
        summary.flush()
    }
}
