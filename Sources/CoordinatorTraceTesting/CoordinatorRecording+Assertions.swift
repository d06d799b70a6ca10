import CoordinatorLens

extension CoordinatorRecording {
    /// Waits out the grace period of coordinators that are done, then fails the test with one line per retained
    /// coordinator: type, id, reason, and where it was added. Coordinators still in use are fine.
    @discardableResult
    public func assertNoRetainedCoordinators(
        grace: Double = CoordinatorRecording.defaultGrace, timeout: Double? = nil,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) -> Snapshot {
        let snapshot = settle(grace: grace, timeout: timeout)
        for message in LeakFailures.retained(in: snapshot) {
            TestFailure.record(message, fileID: fileID, filePath: filePath, line: line, column: column)
        }
        return snapshot
    }

    /// Waits until every coordinator recorded has deinited, for at most the grace period and a little slack, then
    /// fails the test with one line per coordinator that has not: retained, or still alive.
    @discardableResult
    public func assertAllReleased(
        grace: Double = CoordinatorRecording.defaultGrace, timeout: Double? = nil,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) -> Snapshot {
        let snapshot = settle(grace: grace, timeout: timeout, untilReleased: true)
        for message in LeakFailures.notReleased(in: snapshot) {
            TestFailure.record(message, fileID: fileID, filePath: filePath, line: line, column: column)
        }
        return snapshot
    }

    /// `assertAllReleased` for async tests: it waits without holding a thread.
    @discardableResult
    public func assertAllReleased(
        grace: Double = CoordinatorRecording.defaultGrace, timeout: Double? = nil,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) async -> Snapshot {
        let snapshot = await settle(grace: grace, timeout: timeout, untilReleased: true)
        for message in LeakFailures.notReleased(in: snapshot) {
            TestFailure.record(message, fileID: fileID, filePath: filePath, line: line, column: column)
        }
        return snapshot
    }
}
