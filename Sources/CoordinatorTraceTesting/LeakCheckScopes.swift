import CoordinatorTrace
import Foundation

/// Runs `body` with a tracer of its own, then fails the test for every coordinator reported to that tracer that is
/// not released within `grace` after `body` returns. Such tests can run in parallel; the code under test must report
/// to the tracer it is given.
@discardableResult
public func assertCoordinatorsReleased<Result>(
    grace: Double = CoordinatorRecording.defaultGrace,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column,
    _ body: (Tracer) throws -> Result
) rethrows -> Result {
    let recording = CoordinatorRecording()
    defer { recording.end() }
    let result = try body(recording.tracer)
    recording.assertAllReleased(grace: grace, fileID: fileID, filePath: filePath, line: line, column: column)
    return result
}

/// `assertCoordinatorsReleased` for async code; `body` runs in the caller's isolation.
@discardableResult
public func assertCoordinatorsReleased<Result>(
    grace: Double = CoordinatorRecording.defaultGrace,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column,
    isolation: isolated (any Actor)? = #isolation,
    _ body: (Tracer) async throws -> Result
) async rethrows -> Result {
    let recording = CoordinatorRecording()
    defer { recording.end() }
    let result = try await body(recording.tracer)
    await recording.assertAllReleased(grace: grace, fileID: fileID, filePath: filePath, line: line, column: column)
    return result
}

/// Runs `body` while `CoordinatorTrace` records, then fails the test for every coordinator reported during `body` that
/// is not released within `grace`: for code that reports through `CoordinatorTrace`'s static calls.
///
/// These scopes take turns across the whole test process, and anything else that reports through `CoordinatorTrace`
/// while one runs lands in its recording; prefer `assertCoordinatorsReleased` where the code under test can take a
/// tracer.
@discardableResult
public func assertSharedCoordinatorsReleased<Result>(
    grace: Double = CoordinatorRecording.defaultGrace,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column,
    _ body: () throws -> Result
) rethrows -> Result {
    SharedTracerTurn.lock.lock()
    defer { SharedTracerTurn.lock.unlock() }
    let recording = CoordinatorRecording(tracer: .shared)
    defer { recording.end() }
    let result = try body()
    recording.assertAllReleased(grace: grace, fileID: fileID, filePath: filePath, line: line, column: column)
    return result
}

/// Makes the scopes that record through the shared tracer take turns.
enum SharedTracerTurn {
    static let lock = NSLock()
}
