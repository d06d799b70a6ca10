import Foundation

/// A value and the condition variable that guards it: the value is reachable only inside the box's closures, and a
/// thread may sleep, the lock let go, until another changes it. For the threads that wait for work (`RenderQueue`,
/// `StreamRecorder`), which `NIOLockedValueBox` cannot put to sleep.
final class ConditionBox<Value>: @unchecked Sendable {
    /// What a waiting closure found: a result, or nothing yet, to look again once woken or at `until` (nil: when woken).
    enum Look<Result> {
        case found(Result)
        case waiting(until: Date?)
    }

    private let condition = NSCondition()
    // Reached only with `condition` held.
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with exclusive access to the value, then wakes every waiter to look again.
    func withLockedValue<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        condition.lock()
        defer {
            condition.broadcast()
            condition.unlock()
        }
        return try body(&value)
    }

    /// Runs `body` with exclusive access to the value, and wakes the waiters only when it says there is something new
    /// for them: a producer adding to work already pending costs no wake-up (a system call per line, otherwise).
    func withLockedValueWaking<Result>(when body: (inout Value) throws -> (result: Result, wake: Bool)) rethrows -> Result {
        condition.lock()
        defer { condition.unlock() }
        let (result, wake) = try body(&value)
        if wake { condition.broadcast() }
        return result
    }

    /// Runs `look` with exclusive access to the value until it finds its result, sleeping between looks; every waiter is
    /// woken when it does, as after `withLockedValue`.
    func wait<Result>(_ look: (inout Value) throws -> Look<Result>) rethrows -> Result {
        condition.lock()
        defer {
            condition.broadcast()
            condition.unlock()
        }
        while true {
            switch try look(&value) {
            case .found(let result):
                return result
            case .waiting(until: nil):
                condition.wait()
            case .waiting(until: let deadline?):
                // Foundation on Linux traps converting `.distantFuture` to a timespec.
                if deadline == .distantFuture { condition.wait() } else { _ = condition.wait(until: deadline) }
            }
        }
    }
}
