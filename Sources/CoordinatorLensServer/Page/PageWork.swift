import NIOConcurrencyHelpers
import NIOPosix

/// The page's requests that block (judging a session, drawing it through the process's one libgvc owner): a
/// `NIOThreadPool` of their own, and a bound on how many wait or run, so a burst of requests for big pictures is turned
/// away at once (503) instead of piling up threads that all wait on libgvc's lock. Work that is never shed runs on a
/// thread of its own, so the sessions' list never queues behind a big session's model or picture.
final class PageWork: Sendable {
    private let pool: NIOThreadPool
    private let unshed = NIOThreadPool(numberOfThreads: 1)
    private let admitted = NIOLockedValueBox(0)
    /// Requests waiting or running at most.
    let limit: Int

    /// Not yet running: `start` starts its threads.
    init(threads: Int = 2, limit: Int = 32) {
        pool = NIOThreadPool(numberOfThreads: threads)
        self.limit = limit
    }

    func start() {
        pool.start()
        unshed.start()
    }

    /// Runs `body` on the pool when fewer than `limit` requests are waiting or running; false, and nothing run, when
    /// that many are. `always`: runs it whatever the count, on its own thread (work that is never shed and of which at
    /// most one waits, as the sessions' list, built once for every page asking: `SharedAnswers`).
    func submit(always: Bool = false, _ body: @escaping @Sendable () -> Void) -> Bool {
        let taken = admitted.withLockedValue { count in
            guard count < limit || always else { return false }
            count += 1
            return true
        }
        guard taken else { return false }
        let admitted = admitted
        (always ? unshed : pool).submit { state in
            if case .active = state { body() }
            admitted.withLockedValue { $0 -= 1 }
        }
        return true
    }

    /// Requests waiting or running now.
    var pending: Int { admitted.withLockedValue { $0 } }

    /// Lets what runs finish and what waits be dropped (the connections close anyway), then ends the threads.
    func shutdown() async {
        try? await pool.shutdownGracefully()
        try? await unshed.shutdownGracefully()
    }
}
