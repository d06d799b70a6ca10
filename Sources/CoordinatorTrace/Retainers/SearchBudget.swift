#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// When one coordinator's search must stop: after `RetainerSearchOptions.timeBudget` of the searching thread's own
/// CPU time, or at the wall-clock end of the whole search (`totalTimeBudget`, or the caller's deadline).
///
/// The per-coordinator part counts CPU, not wall time, so what the search finds does not depend on how busy the machine
/// is: on a wall clock, a search that needs 80 ms alone ran out of its 250 ms with eight other processes on two cores
/// and called a Task-held leak unreachable (3 runs in 4). The app still pays at most the budget in CPU, and the wall
/// deadline keeps `end()` bounded however slow the machine.
struct SearchBudget {
    /// The searching thread's CPU time at which this coordinator's search stops, in nanoseconds.
    private let cpuDeadline: UInt64
    /// The `MonotonicClock` reading at which every search stops.
    private let wallDeadline: UInt64

    /// A budget of `seconds` of this thread's CPU from now, ending at the latest at `wallDeadline`.
    init(seconds: Double, wallDeadline: UInt64) {
        cpuDeadline = Self.threadCPUTime() &+ UInt64(max(0, min(seconds, 1e6)) * 1e9)
        self.wallDeadline = wallDeadline
    }

    /// Whether the search must stop now.
    var isSpent: Bool {
        Self.threadCPUTime() > cpuDeadline || MonotonicClock.now() > wallDeadline
    }

    /// The calling thread's CPU time, in nanoseconds.
    static func threadCPUTime() -> UInt64 {
        var time = timespec()
        guard clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time) == 0 else { return MonotonicClock.now() }
        return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
    }
}
