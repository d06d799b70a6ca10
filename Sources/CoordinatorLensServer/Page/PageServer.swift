import CoordinatorLens
import CoordinatorLensPage
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix

/// The inspector page's HTTP listener: binds its port on an event loop group it is given and serves `InspectorPage`
/// and `PageFeed` over it, holding at most `gate.limit` connections, each within `PageLimits` deadlines.
final class PageServer: Sendable {
    let feed: PageFeed
    private let page: InspectorPage
    private let gate: ConnectionGate
    private let requestTimeout: Double
    // Two threads: a page asks for a session's model and picture at once, and only the picture waits for libgvc.
    private let work = PageWork(threads: 2, limit: 32)
    /// The listening channel, set by `start` and taken by `stop`, which may run on other threads.
    private let channel = NIOLockedValueBox<(any Channel)?>(nil)

    /// Without `token`, anyone who can reach the port may use the page (loopback); with it, only who brings it.
    private let token: AccessToken?

    init(
        sessions: LiveSessions, grace: Double, paths: SourcePaths = SourcePaths(), editorURL: String? = nil,
        context: LeakContext? = nil, token: AccessToken? = nil, limits: PageLimits = PageLimits(), connectionLimit: Int,
        feedTimers: any EventLoop, log: @escaping @Sendable (String) -> Void
    ) {
        self.token = token
        page = InspectorPage(sessions: sessions, grace: grace, paths: paths, editorURL: editorURL, context: context)
        feed = PageFeed(
            sessions: sessions, grace: grace, context: context, stallTimeout: limits.feedStallTimeout, timers: feedTimers, log: log)
        gate = ConnectionGate(limit: connectionLimit, kind: "page connection", log: log)
        requestTimeout = limits.requestTimeout
    }

    /// Binds `host:port` (0: a free port); returns the port bound.
    func start(host: String, port: Int, group: any EventLoopGroup) async throws -> Int {
        work.start()
        let (page, feed, work, token) = (self.page, self.feed, self.work, self.token)
        let (gate, requestTimeout) = (self.gate, self.requestTimeout)
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 64)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            // Out of file descriptors, accept fails at once on every try: back off instead of spinning.
            .serverChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(AcceptBackoffHandler())
                }
            }
            .childChannelInitializer { channel in
                // Idle connections count too, and one past the limit is closed at once rather than left queued.
                guard gate.admit(channel) != nil else {
                    return channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHandler(RefusedConnectionHandler())
                    }
                }
                channel.closeFuture.whenComplete { _ in gate.release(channel) }
                return channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline(withErrorHandling: true)
                    try channel.pipeline.syncOperations.addHandler(RequestDeadlineHandler(timeout: requestTimeout))
                    // An accepted connection's local port is the one the listener bound, 0 given or not.
                    let port = channel.localAddress?.port ?? -1
                    try channel.pipeline.syncOperations.addHandler(
                        PageRequestHandler(
                            page: page, feed: feed, hosts: HostCheck(port: port), access: PageAccess(token: token, port: port), work: work
                        ))
                }
            }
        let channel = try await bootstrap.bind(host: host, port: port).get()
        self.channel.withLockedValue { $0 = channel }
        return channel.localAddress?.port ?? port
    }

    /// Closes the port, then every open page connection.
    func stop() async {
        let channel = self.channel.withLockedValue { channel in
            defer { channel = nil }
            return channel
        }
        try? await channel?.close()
        await gate.closeAll()
        await work.shutdown()
        await feed.shutdown()
    }
}
