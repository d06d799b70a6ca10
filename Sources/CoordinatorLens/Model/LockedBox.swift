#if canImport(os)
import os
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A value and the lock that guards it, in one allocation: the value is reachable only inside `withLock`.
///
/// The core's copy of the hook's `LockedBox` (the core cannot see the hook's internals, and neither may depend on
/// NIO): `Synchronization.Mutex` would need macOS 15 / iOS 18, above the package's deployment targets.
///
/// Built on `ManagedBuffer` (as SwiftNIO's `NIOLockedValueBox` is): the value is the header, the lock the one element,
/// and both are reached through pointers, so a call pays no run-time exclusivity check on top of the lock.
/// os_unfair_lock on Apple platforms, a pthread mutex elsewhere: both cost about half of NSLock, and the core
/// needs no Foundation.
final class LockedBox<Value>: @unchecked Sendable {
    #if canImport(os)
    typealias Primitive = os_unfair_lock
    #else
    typealias Primitive = pthread_mutex_t
    #endif

    private let storage: Storage

    private final class Storage: ManagedBuffer<Value, Primitive> {
        deinit {
            withUnsafeMutablePointerToElements { lock in
                #if !canImport(os)
                pthread_mutex_destroy(lock)
                #endif
                lock.deinitialize(count: 1)
            }
        }
    }

    init(_ value: Value) {
        let buffer = Storage.create(minimumCapacity: 1) { _ in value }
        buffer.withUnsafeMutablePointerToElements { lock in
            #if canImport(os)
            lock.initialize(to: os_unfair_lock())
            #else
            lock.initialize(to: pthread_mutex_t())
            let status = pthread_mutex_init(lock, nil)
            precondition(status == 0, "pthread_mutex_init failed: \(status)")
            #endif
        }
        // `create` returns the base class type; the storage is the subclass it was called on.
        storage = unsafeDowncast(buffer, to: Storage.self)
    }

    /// Runs `body` with exclusive access to the value; keep it short, every other caller waits on this lock.
    @inline(__always)
    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try storage.withUnsafeMutablePointers { value, lock in
            #if canImport(os)
            os_unfair_lock_lock(lock)
            defer { os_unfair_lock_unlock(lock) }
            #else
            // Fails only for an uninitialised or error-checking mutex, which this one never is.
            pthread_mutex_lock(lock)
            defer { pthread_mutex_unlock(lock) }
            #endif
            return try body(&value.pointee)
        }
    }
}
