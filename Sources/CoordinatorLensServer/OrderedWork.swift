import NIOConcurrencyHelpers
import NIOPosix

/// A serial executor on a thread pool: the work handed to it runs one at a time, in the order handed in, on whichever
/// of the pool's threads is free, so a lane of ordered work costs no thread of its own.
final class OrderedWork: Sendable {
    private struct State {
        var waiting: [@Sendable () -> Void] = []
        var running = false
    }

    private let pool: NIOThreadPool
    private let state = NIOLockedValueBox(State())

    /// Work run on `pool`, which its owner starts and ends.
    init(on pool: NIOThreadPool) {
        self.pool = pool
    }

    /// Runs `body` after everything handed in before it; also while the pool shuts down (NIO then hands the pool's work
    /// back at once), so a caller waiting in `run` is always answered.
    func submit(_ body: @escaping @Sendable () -> Void) {
        let start = state.withLockedValue { state in
            state.waiting.append(body)
            defer { state.running = true }
            return !state.running
        }
        if start { pool.submit { [self] _ in drain() } }
    }

    /// Runs `work` after everything handed in before it and waits for it, without holding a thread while it waits.
    func run<Value: Sendable>(_ work: @escaping @Sendable () -> Value) async -> Value {
        await withCheckedContinuation { continuation in
            submit { continuation.resume(returning: work()) }
        }
    }

    private func drain() {
        while true {
            let next = state.withLockedValue { state -> (@Sendable () -> Void)? in
                guard !state.waiting.isEmpty else {
                    state.running = false
                    return nil
                }
                return state.waiting.removeFirst()
            }
            guard let next else { return }
            next()
        }
    }
}
