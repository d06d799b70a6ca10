#if canImport(Synchronization)
import Synchronization
#endif

/// Whether a tracer has a session, readable without its lock: a hook call with no session behind it (an app that
/// never starts one, as in a release build with `start` behind `#if DEBUG`) returns after one relaxed load, with no
/// lock and no clock read.
///
/// Written only under the tracer's lock, so it always ends up matching `TracerState.session`. A caller that reads
/// it closed while a `start` on another thread is under way simply comes before that start; one that reads it open
/// takes the lock and finds out there. Where the OS is older than Synchronization's atomics, it always reads open
/// and every call takes the lock, as before.
struct SessionGate: @unchecked Sendable {
    private let flag: AnyObject?

    init() {
        #if canImport(Synchronization)
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
            flag = AtomicFlag()
            return
        }
        #endif
        flag = nil
    }

    /// False only when no session runs; true may be stale, so the caller checks again under the lock.
    @inline(__always)
    var mayBeOpen: Bool {
        #if canImport(Synchronization)
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
            return unsafeDowncast(flag.unsafelyUnwrapped, to: AtomicFlag.self).value.load(ordering: .relaxed)
        }
        #endif
        return true
    }

    /// Opens or closes the gate; call under the tracer's lock, right after the session changed.
    func set(open: Bool) {
        #if canImport(Synchronization)
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
            unsafeDowncast(flag.unsafelyUnwrapped, to: AtomicFlag.self).value.store(open, ordering: .relaxed)
        }
        #endif
    }
}

#if canImport(Synchronization)
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
private final class AtomicFlag {
    let value = Atomic<Bool>(false)
}
#endif
