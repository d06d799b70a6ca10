import CoordinatorTrace
import CoordinatorTraceTesting
import Testing

@Suite struct SharedScopeTests {
    @Test func cleanFlowThroughCoordinatorTracePasses() {
        assertSharedCoordinatorsReleased(grace: 0.3) {
            Flows.clean(Tracer.shared)
        }
    }

    @Test func leakingFlowThroughCoordinatorTraceFails() {
        let issues = RecordedIssues()
        withKnownIssue {
            assertSharedCoordinatorsReleased(grace: 0.3) {
                Flows.cycle(Tracer.shared)
            }
        } matching: {
            issues.matcher()($0)
        }
        #expect(issues.messages.count == 2)
        #expect(issues.messages.contains { $0.hasPrefix("CyclicDetailCoordinator#2 retained: still a child of RootCoordinator#1") })
    }
}
