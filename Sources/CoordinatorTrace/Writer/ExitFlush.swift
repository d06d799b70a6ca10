@_spi(Locking) import CoordinatorWire
import Foundation

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Writes out what the running sessions have queued when the app calls `exit` (or returns from `main`): the writer
/// takes the queue only every `TraceOptions.tickInterval`, so an app that quits right after a leak lost its last
/// events, and one that quits within its first tick its whole recording. Bounded by `budget` for all sessions
/// together; a process ended by a signal (a UI test's runner killing the app) runs no exit handlers and keeps what
/// the ticks before wrote.
enum ExitFlush {
    /// How long `exit` may wait, at most, for every session's queue to be written (and, to `coordlens listen`,
    /// confirmed).
    static let budget = 1.0

    private struct Started: Sendable {
        weak var tracer: Tracer?
    }

    private static let started = LockedBox<[Started]>([])
    private static let installed: Void = { atexit { ExitFlush.flushStarted() } }()

    /// Flushes `tracer` at exit unless its session has ended by then.
    static func register(_ tracer: Tracer) {
        _ = installed
        started.withLock { started in
            started.removeAll { $0.tracer == nil || $0.tracer === tracer }
            started.append(Started(tracer: tracer))
        }
    }

    private static func flushStarted() {
        let tracers = started.withLock { started in started.compactMap(\.tracer) }
        flush(tracers, budget: budget)
    }

    /// Flushes each tracer within `budget` seconds for all together; whether each one's queue was written. A tracer
    /// whose lock is not free in time (an app thread stuck inside a hook call) is given up, said on standard error,
    /// and never waited for past the budget.
    @discardableResult
    static func flush(_ tracers: [Tracer], budget: Double) -> [Bool] {
        let deadline = MonotonicClock.now() &+ UInt64(budget * 1e9)
        return tracers.map { tracer in
            let flushed = tracer.flush(until: deadline)
            if flushed == nil {
                let message = "CoordinatorTrace: exit did not wait for the hook's lock past its \(budget) s budget; the last events are not written\n"
                FileHandle.standardError.write(Data(message.utf8))
            }
            return flushed ?? false
        }
    }
}
