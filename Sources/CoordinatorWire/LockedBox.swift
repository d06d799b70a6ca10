#if canImport(os)
import os
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A value and the lock that guards it, in one allocation: the value is reachable only inside `withLock`. The one lock
/// box of the hook and the core (the server has NIO's); Sendable when its value is, as NIO's box is.
///
/// Built on `ManagedBuffer` (as SwiftNIO's `NIOLockedValueBox` is): the value is the header, the lock the one element,
/// and both are reached through pointers, so a call pays no run-time exclusivity check on top of the lock.
/// os_unfair_lock on Apple platforms, a pthread mutex elsewhere: both cost about half of NSLock, most of the hook's
/// budget per event. Inlinable, so the hook's calls pay no cross-module call: public behind an SPI rather than
/// `package`, because Swift 6.3 inlined a `package` one in no other module (measured: 12-17% more instructions per hook
/// call); `@_spi(Locking) import CoordinatorWire` reaches it, and no app sees it. `Synchronization.Mutex` would need
/// macOS 15 / iOS 18, above the package's deployment targets.
@_spi(Locking) public final class LockedBox<Value> {
    @usableFromInline let storage: LockedStorage<Value>

    public init(_ value: Value) {
        let buffer = LockedStorage<Value>.create(minimumCapacity: 1) { _ in value }
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
        storage = unsafeDowncast(buffer, to: LockedStorage<Value>.self)
    }

    /// Runs `body` with exclusive access to the value; keep it short, every other caller waits on this lock. (A box
    /// of `()` used only as a lock drew a Thread Sanitizer race report in CI: give it a value to keep.)
    @inlinable @inline(__always)
    public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
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

@_spi(Locking) extension LockedBox: @unchecked Sendable where Value: Sendable {}

#if canImport(os)
@usableFromInline typealias LockPrimitive = os_unfair_lock
#else
@usableFromInline typealias LockPrimitive = pthread_mutex_t
#endif

/// The value as the header and the lock as the one element of one allocation.
@usableFromInline final class LockedStorage<Value>: ManagedBuffer<Value, LockPrimitive> {
    deinit {
        withUnsafeMutablePointerToElements { lock in
            #if !canImport(os)
            pthread_mutex_destroy(lock)
            #endif
            lock.deinitialize(count: 1)
        }
    }
}
