#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Nanoseconds on a clock that never jumps, read cheaply on the caller's thread (no Dispatch or Foundation layer).
/// `package`: whatever judges the hook's times while the app runs (CoordinatorTraceTesting) reads this same clock, as
/// another clock's "now" can be ahead of the coarse one by a tick and call a coordinator retained that the hook's
/// search does not yet count past its grace.
///
/// On Linux the coarse clock: the kernel's last tick, read without the time-stamp counter (5.7 ns a read here against
/// 26.6 ns, which was 40 % of a hook call), at the tick's resolution (4 ms here, 1 ms on many kernels). Events are
/// stamped under the tracer's lock, so their times still never decrease in the order they happened; events within
/// one tick share a time, which grace periods of seconds do not notice. Apple's uptime clock is read from the
/// commpage already.
package enum MonotonicClock {
    package static func now() -> UInt64 {
        #if canImport(Darwin)
        return clock_gettime_nsec_np(CLOCK_UPTIME_RAW)
        #else
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC_COARSE, &time)
        return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
        #endif
    }

    /// How far a reading may lag behind the moment it is taken: a sleep meant to end at a reading lasts this much
    /// longer, so that the clock shows it passed when the sleeper looks.
    package static let resolution: UInt64 = {
        #if canImport(Darwin)
        return 0
        #else
        var resolution = timespec()
        clock_getres(CLOCK_MONOTONIC_COARSE, &resolution)
        return UInt64(resolution.tv_sec) &* 1_000_000_000 &+ UInt64(resolution.tv_nsec)
        #endif
    }()
}
