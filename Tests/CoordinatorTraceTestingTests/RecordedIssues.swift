import Foundation
import Testing

/// Collects the messages of the known issues a test expects, to check them after `withKnownIssue`.
final class RecordedIssues: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [String] = []

    /// A matcher for `withKnownIssue` that keeps every issue's comments and accepts it.
    func matcher() -> KnownIssueMatcher {
        { [self] issue in
            lock.lock()
            stored.append(issue.comments.map(\.rawValue).joined(separator: "\n"))
            lock.unlock()
            return true
        }
    }

    var messages: [String] {
        lock.lock()
        defer { lock.unlock() }
        return stored
    }
}
