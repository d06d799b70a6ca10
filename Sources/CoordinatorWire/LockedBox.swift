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
            var attributes = pthread_mutexattr_t()
            pthread_mutexattr_init(&attributes)
            #if DEBUG
            // A debug build's lock knows its owner, so a thread that takes it again (a deinit or a callback run under
            // it that calls back in) stops with its stack, which holds both the holder's frames and the re-entry,
            // instead of deadlocking. os_unfair_lock does this by itself.
            pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_ERRORCHECK))
            #endif
            let status = pthread_mutex_init(lock, &attributes)
            pthread_mutexattr_destroy(&attributes)
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
            // Fails only for an uninitialised mutex, or in a debug build for one its own thread holds already.
            let status = pthread_mutex_lock(lock)
            #if DEBUG
            if status != 0 { Self.lockFailed(status) }
            #endif
            defer { pthread_mutex_unlock(lock) }
            #endif
            return try body(&value.pointee)
        }
    }

    /// Runs `body` as `withLock` does if the lock is free now; nil, without waiting, when another thread holds it.
    @inlinable
    public func withLockIfAvailable<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result? {
        try storage.withUnsafeMutablePointers { value, lock in
            #if canImport(os)
            guard os_unfair_lock_trylock(lock) else { return nil }
            defer { os_unfair_lock_unlock(lock) }
            #else
            guard pthread_mutex_trylock(lock) == 0 else { return nil }
            defer { pthread_mutex_unlock(lock) }
            #endif
            return try body(&value.pointee)
        }
    }

    #if DEBUG && !canImport(os)
    @usableFromInline static func lockFailed(_ status: Int32) -> Never {
        fatalError(
            status == EDEADLK
                ? "LockedBox: taken again by the thread that holds it (code run under the lock called back in); the stack shows both"
                : "LockedBox: pthread_mutex_lock failed: \(status)")
    }
    #endif
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
