import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// Every thread `listen` and `view` run work on, and nothing else (docs/ARCHITECTURE.md, "Threads"): an event loop for
/// hook connections, one for the page, and one `NIOThreadPool` for blocking work (building answers, gzip, flushing the
/// recording) that also carries the judging lane, which judges runs and sends the feed one job at a time, in order.
///
/// One lane is what makes a run's judgements come one after another: the feed's rounds and the refresh never judge
/// at once, and a summary sent is never older than one sent before it. The page keeps a loop of its own so a hook line that makes the intake copy a huge tree never holds
/// up a page or its feed.
final class ServerExecutors: Sendable {
    /// Reads hook connections into the sessions.
    let hookLoops = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    /// Serves the page and its feed, and keeps the server's clocks.
    let pageLoops = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    /// Blocking work: a page asks for a model and a picture at once, and only the picture waits for libgvc.
    let blocking = NIOThreadPool(numberOfThreads: 2)
    /// Judgements and the feed's sends, one at a time, on the pool.
    let judging: OrderedWork
    private let interrupts = NIOLockedValueBox<InterruptSignals?>(nil)

    /// The threads start at once and end with `shutdown`.
    init() {
        blocking.start()
        judging = OrderedWork(on: blocking)
    }

    /// Runs `body` on `pool` unless the pool is shutting down (the connections close anyway).
    static func run(on pool: NIOThreadPool, _ body: @escaping @Sendable () -> Void) {
        pool.submit { state in
            if case .active = state { body() }
        }
    }

    /// Runs blocking `work` on the pool and waits for it without holding a thread of the cooperative pool.
    func onBlockingPool<Value: Sendable>(_ work: @escaping @Sendable () -> Value) async -> Value {
        if let value = try? await blocking.runIfActive(work) { return value }
        // Shut down already (only while stopping): the work still runs.
        return work()
    }

    /// Runs `work` in the judging lane, after what was handed to it before, and waits for it.
    func judged<Value: Sendable>(_ work: @escaping @Sendable () -> Value) async -> Value {
        await judging.run(work)
    }

    /// Calls `handler` on the page's loop at each SIGINT or SIGTERM until `shutdown`, with no thread waiting for them.
    func onInterrupt(_ handler: @escaping @Sendable () -> Void) async throws {
        let watch = try await InterruptSignals.watch(on: pageLoops.next(), handler)
        interrupts.withLockedValue { $0 = watch }
    }

    /// Lets the work in hand finish, then ends every thread.
    func shutdown() async {
        if let watch = interrupts.withLockedValue({ $0.take() }) { await watch.stop() }
        try? await blocking.shutdownGracefully()
        try? await hookLoops.shutdownGracefully()
        try? await pageLoops.shutdownGracefully()
    }
}
