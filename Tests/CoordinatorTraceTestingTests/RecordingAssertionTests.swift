import CoordinatorLens
import CoordinatorTrace
import CoordinatorTraceTesting
import Testing

@Suite struct RecordingAssertionTests {
    @Test func retainedChildFailsWhileItsLiveParentIsFine() {
        let recording = CoordinatorRecording()
        defer { recording.end() }
        let root = RootCoordinator(tracer: recording.tracer)
        root.start()
        do {
            let detail = DetailCoordinator(tracer: recording.tracer)
            root.addChild(detail)
            var screen: Screen? = Screen()
            recording.tracer.bind(detail, to: screen!)
            screen = nil
        }

        let issues = RecordedIssues()
        var snapshot: Snapshot?
        withKnownIssue {
            snapshot = recording.assertNoRetainedCoordinators(grace: 0.3)
        } matching: {
            issues.matcher()($0)
        }
        #expect(issues.messages.count == 1)
        #expect(
            issues.messages.first?.hasPrefix(
                "DetailCoordinator#2 retained: still a child of RootCoordinator#1 (added at CoordinatorTraceTestingTests/RecordingAssertionTests.swift:")
                == true)
        #expect(snapshot?.node(1)?.verdict == .alive)
        withExtendedLifetime(root) {}
    }

    @Test func freedChildPassesWithoutWaitingOutTheGrace() {
        let recording = CoordinatorRecording()
        defer { recording.end() }
        let root = RootCoordinator(tracer: recording.tracer)
        root.start()
        do {
            let detail = DetailCoordinator(tracer: recording.tracer)
            root.addChild(detail)
            root.removeChild(detail)
        }
        let clock = ContinuousClock()
        let started = clock.now
        let snapshot = recording.assertNoRetainedCoordinators(grace: 5)
        #expect(clock.now - started < .seconds(4), "a released child needs no wait for its grace period")
        #expect(snapshot.node(2)?.verdict == .released)
        withExtendedLifetime(root) {}
    }

    @Test func assertAllReleasedReportsWhatIsStillAlive() {
        let recording = CoordinatorRecording()
        defer { recording.end() }
        let root = RootCoordinator(tracer: recording.tracer)
        root.start()
        let issues = RecordedIssues()
        withKnownIssue {
            recording.assertAllReleased(grace: 0.2)
        } matching: {
            issues.matcher()($0)
        }
        #expect(issues.messages.count == 1)
        #expect(issues.messages.first?.contains("RootCoordinator#1 not released: still alive") == true)
        withExtendedLifetime(root) {}
    }
}
