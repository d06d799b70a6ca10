import NIOConcurrencyHelpers
import NIOPosix

/// The page's requests that block (building a model, drawing a picture through the process's one libgvc owner): the
/// server's pool for blocking work, and a bound on how many wait or run, so a burst of requests for big pictures is
/// turned away at once (503) instead of piling up behind libgvc's lock. Work that is never shed (the sessions' list)
/// runs in the judging lane, where the judgements it reports are made, so it never queues behind big pictures.
final class PageWork: Sendable {
    private let pool: NIOThreadPool
    private let unshed: OrderedWork
    private let admitted = NIOLockedValueBox(0)
    /// Requests waiting or running at most.
    let limit: Int

    /// Work on `pool`, and work never shed on `unshed`; neither is started or ended here.
    init(pool: NIOThreadPool, unshed: OrderedWork, limit: Int = 32) {
        self.pool = pool
        self.unshed = unshed
        self.limit = limit
    }

    /// Runs `body` on the pool when fewer than `limit` requests are waiting or running; false, and nothing run, when
    /// that many are. `always`: runs it whatever the count, on `unshed` (work that is never shed and of which at
    /// most one waits, as the sessions' list, built once for every page asking: `SharedAnswers`).
    func submit(always: Bool = false, _ body: @escaping @Sendable () -> Void) -> Bool {
        let taken = admitted.withLockedValue { count in
            guard count < limit || always else { return false }
            count += 1
            return true
        }
        guard taken else { return false }
        let admitted = admitted
        if always {
            unshed.submit {
                body()
                admitted.withLockedValue { $0 -= 1 }
            }
        } else {
            pool.submit { state in
                if case .active = state { body() }
                admitted.withLockedValue { $0 -= 1 }
            }
        }
        return true
    }

    /// Requests waiting or running now.
    var pending: Int { admitted.withLockedValue { $0 } }
}
