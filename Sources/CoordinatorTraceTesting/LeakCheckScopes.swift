import CoordinatorTrace
@_spi(Locking) import CoordinatorWire
import Foundation

/// Runs `body` with a tracer of its own and judges in two steps. While the value `body` returns is still alive (return
/// what your app keeps: its root coordinator, or the app object), every coordinator that finished must be freed within
/// `grace`: a child its parent never let go of fails here. Then the value is released and every coordinator must be
/// freed. A closure that returns nothing while the app's root dies with it fails: nothing could be judged while the
/// app lived. Tests using it can run in parallel; the code under test must report to the tracer it is given.
///
/// ```swift
/// assertCoordinatorsReleased { tracer in
///     let home = HomeCoordinator(tracer: tracer)
///     home.start()
///     home.showCheckout().cancelOrder()
///     return home
/// }
/// ```
///
/// `options` are the hook's for the scope's session (its grace replaced by `grace`).
public func assertCoordinatorsReleased<Kept>(
    grace: Double = CoordinatorRecording.defaultGrace, options: TraceOptions = TraceOptions(),
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column,
    _ body: (Tracer) throws -> Kept
) rethrows {
    try assertCoordinatorsReleased(grace: grace, fileID: fileID, filePath: filePath, line: line, column: column, body) {
        CoordinatorRecording(grace: grace, options: options)
    }
}

/// `assertCoordinatorsReleased` for async code; `body` runs in the caller's isolation, and waiting holds no thread.
public func assertCoordinatorsReleased<Kept>(
    grace: Double = CoordinatorRecording.defaultGrace, options: TraceOptions = TraceOptions(),
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column,
    isolation: isolated (any Actor)? = #isolation,
    _ body: (Tracer) async throws -> Kept
) async rethrows {
    let recording = CoordinatorRecording(grace: grace, options: options)
    defer { recording.end() }
    var kept: Kept? = try await body(recording.tracer)
    let location = FailureLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    let leaks = await recording.assertNoRetainedCoordinators(grace: grace, keeping: Kept.self, at: location)
    withExtendedLifetime(kept) {}
    kept = nil
    await recording.assertAllReleased(grace: grace, excluding: leaks, at: location)
}

/// `assertCoordinatorsReleased` for code that reports through `CoordinatorTrace`'s static calls: `body` returns what
/// the app keeps, the check runs while it lives, then again once it is released.
///
/// These scopes take turns across the whole test process, and anything else that reports through `CoordinatorTrace`
/// while one runs lands in its recording; prefer `assertCoordinatorsReleased` where the code under test can take a
/// tracer.
public func assertSharedCoordinatorsReleased<Kept>(
    grace: Double = CoordinatorRecording.defaultGrace, options: TraceOptions = TraceOptions(),
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column,
    _ body: () throws -> Kept
) rethrows {
    try SharedTracerTurn.turn.withLock { turns in
        turns += 1
        return try assertCoordinatorsReleased(grace: grace, fileID: fileID, filePath: filePath, line: line, column: column) { _ in
            try body()
        } recording: {
            CoordinatorRecording(tracer: .shared, grace: grace, options: options)
        }
    }
}

private func assertCoordinatorsReleased<Kept>(
    grace: Double, fileID: StaticString, filePath: StaticString, line: UInt, column: UInt,
    _ body: (Tracer) throws -> Kept, recording makeRecording: () -> CoordinatorRecording
) rethrows {
    let recording = makeRecording()
    defer { recording.end() }
    var kept: Kept? = try body(recording.tracer)
    let location = FailureLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    let leaks = recording.assertNoRetainedCoordinators(grace: grace, keeping: Kept.self, at: location)
    withExtendedLifetime(kept) {}
    kept = nil
    recording.assertAllReleased(grace: grace, excluding: leaks, at: location)
}

/// Makes the scopes that record through the shared tracer take turns; the value counts the turns taken.
enum SharedTracerTurn {
    // Not a box of `()`: the Thread Sanitizer places the inout access of an empty value at the start of the box's
    // storage, where the next caller reads the object to find the lock, and reported that read as a race.
    static let turn = LockedBox(0)
}
