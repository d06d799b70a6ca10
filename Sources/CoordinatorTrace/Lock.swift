#if canImport(os)
import os
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The lock every hook call takes once: os_unfair_lock on Apple platforms, a pthread mutex elsewhere, both about half
/// the cost of NSLock, which is most of the hook's budget per event.
final class Lock: @unchecked Sendable {
    #if canImport(os)
    private let primitive: UnsafeMutablePointer<os_unfair_lock>
    #else
    private let primitive: UnsafeMutablePointer<pthread_mutex_t>
    #endif

    init() {
        primitive = .allocate(capacity: 1)
        #if canImport(os)
        primitive.initialize(to: os_unfair_lock())
        #else
        primitive.initialize(to: pthread_mutex_t())
        pthread_mutex_init(primitive, nil)
        #endif
    }

    deinit {
        #if !canImport(os)
        pthread_mutex_destroy(primitive)
        #endif
        primitive.deinitialize(count: 1)
        primitive.deallocate()
    }

    func lock() {
        #if canImport(os)
        os_unfair_lock_lock(primitive)
        #else
        pthread_mutex_lock(primitive)
        #endif
    }

    func unlock() {
        #if canImport(os)
        os_unfair_lock_unlock(primitive)
        #else
        pthread_mutex_unlock(primitive)
        #endif
    }
}
