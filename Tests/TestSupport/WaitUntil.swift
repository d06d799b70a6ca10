import Foundation

// The tests' one way to wait (CONTRIBUTING.md, "Before you push"): on what the test expects, a status line, a file's
// contents, a count, with a generous deadline, never for a fixed time. The wait ends as soon as the thing happens, so
// a deadline of many seconds costs nothing when all is well, and a loaded machine makes a test slower, not wrong.
// `scripts/sleep-lint.sh` allows a sleep here and where a `clock:` comment says the clock is what the test is about.

/// Checks `condition` every `interval` seconds until it holds or `seconds` pass; whether it held, checked once more
/// at the deadline.
@discardableResult
public func waitUntil(seconds: Double, every interval: Double = 0.02, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = Date(timeIntervalSinceNow: seconds)
    while Date() < deadline {
        if try condition() { return true }
        Thread.sleep(forTimeInterval: interval)
    }
    return try condition()
}

/// The same for async tests: it suspends between checks rather than blocking a thread of the cooperative pool.
@discardableResult
public func waitUntil(seconds: Double, every interval: Double = 0.02, _ condition: () async throws -> Bool) async rethrows -> Bool {
    let deadline = Date(timeIntervalSinceNow: seconds)
    while Date() < deadline {
        if try await condition() { return true }
        try? await Task.sleep(nanoseconds: UInt64(interval * 1_000_000_000))
    }
    return try await condition()
}
