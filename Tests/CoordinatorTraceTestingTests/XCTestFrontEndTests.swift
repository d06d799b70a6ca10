import CoordinatorTrace
import CoordinatorTraceTesting
import XCTest

/// The same assertions from XCTest, which reports through XCTFail (no expected-failure API on Linux, so only the
/// passing side is exercised here).
final class XCTestFrontEndTests: XCTestCase {
    func testCleanFlowPasses() {
        assertCoordinatorsReleased(grace: 0.3) { tracer in
            Flows.clean(tracer)
        }
    }

    func testRecordingWithLiveRootPasses() {
        let recording = CoordinatorRecording()
        defer { recording.end() }
        let root = RootCoordinator(tracer: recording.tracer)
        root.start()
        recording.assertNoRetainedCoordinators(grace: 0.3)
        withExtendedLifetime(root) {}
    }
}
