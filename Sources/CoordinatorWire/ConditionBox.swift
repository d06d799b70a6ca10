#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// `LockedBox`'s sibling for threads that sleep until there is work: a value, the mutex that guards it and a condition
/// variable, the value reachable only inside the box's closures. The hook's writer, the core's second reading thread,
/// and the server's recorder and renderer wait in one.
///
/// A pthread mutex and condition rather than `NSCondition` or Dispatch: the hook and the core need no Foundation here,
/// and a thread that waits on another must not queue behind it on Dispatch's shared pool. Timed waits run on the
/// monotonic clock, so a change of the wall clock neither cuts nor stretches them.
package final class ConditionBox<Value> {
    /// What a look found: a result, or nothing yet, to look again once woken or after at most `nanoseconds`
    /// (nil: only when woken).
    package enum Look<Result> {
        case found(Result)
        case waiting(nanoseconds: UInt64?)
    }

    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    // Reached only with `mutex` held.
    private var value: Value

    package init(_ value: Value) {
        self.value = value
        mutex.initialize(to: pthread_mutex_t())
        condition.initialize(to: pthread_cond_t())
        pthread_mutex_init(mutex, nil)
        #if canImport(Darwin)
        pthread_cond_init(condition, nil)
        #else
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
        #endif
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    /// Runs `body` with exclusive access to the value, then wakes every waiter to look again.
    package func withLockedValue<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer {
            pthread_cond_broadcast(condition)
            pthread_mutex_unlock(mutex)
        }
        return try body(&value)
    }

    /// Runs `body` with exclusive access to the value, and wakes the waiters only when it says there is something new
    /// for them: a producer adding to work already pending costs no wake-up (a system call each, otherwise).
    package func withLockedValueWaking<Result>(when body: (inout Value) throws -> (result: Result, wake: Bool)) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        let (result, wake) = try body(&value)
        if wake { pthread_cond_broadcast(condition) }
        return result
    }

    /// Runs `look` with exclusive access to the value until it finds its result, sleeping between looks; every waiter
    /// is woken when it does, as after `withLockedValue`.
    package func wait<Result>(_ look: (inout Value) throws -> Look<Result>) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer {
            pthread_cond_broadcast(condition)
            pthread_mutex_unlock(mutex)
        }
        while true {
            switch try look(&value) {
            case .found(let result):
                return result
            case .waiting(nanoseconds: nil):
                pthread_cond_wait(condition, mutex)
            case .waiting(nanoseconds: let nanoseconds?):
                sleep(nanoseconds: nanoseconds)
            }
        }
    }

    /// Waits on the condition, the mutex held, for at most `nanoseconds`.
    private func sleep(nanoseconds: UInt64) {
        let limited = min(nanoseconds, 3_600_000_000_000)
        #if canImport(Darwin)
        var relative = timespec(tv_sec: Int(limited / 1_000_000_000), tv_nsec: Int(limited % 1_000_000_000))
        pthread_cond_timedwait_relative_np(condition, mutex, &relative)
        #else
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let total = UInt64(now.tv_nsec) + limited % 1_000_000_000
        var deadline = timespec(
            tv_sec: now.tv_sec + Int(limited / 1_000_000_000) + Int(total / 1_000_000_000), tv_nsec: Int(total % 1_000_000_000))
        pthread_cond_timedwait(condition, mutex, &deadline)
        #endif
    }
}

extension ConditionBox: @unchecked Sendable where Value: Sendable {}

extension ConditionBox.Look {
    /// Nothing yet: look again once woken, or at `deadline` on the monotonic clock (nanoseconds), whichever is first;
    /// a deadline passed already looks again at once.
    package static func waiting(untilMonotonic deadline: UInt64, now: UInt64) -> Self {
        .waiting(nanoseconds: deadline > now ? deadline - now : 0)
    }
}
