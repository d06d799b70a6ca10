import Dispatch

/// Nanoseconds on a clock that never jumps, read cheaply on the caller's thread.
enum MonotonicClock {
    static func now() -> UInt64 {
        DispatchTime.now().uptimeNanoseconds
    }
}
