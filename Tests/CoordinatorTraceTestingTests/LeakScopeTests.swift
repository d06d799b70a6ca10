import CoordinatorTrace
import CoordinatorTraceTesting
import Testing

@Suite struct LeakScopeTests {
    @Test func cleanFlowPasses() {
        assertCoordinatorsReleased(grace: 0.3) { tracer in
            Flows.clean(tracer)
        }
    }

    @Test func leakingFlowFailsWithOneLinePerCoordinator() {
        let issues = RecordedIssues()
        withKnownIssue {
            assertCoordinatorsReleased(grace: 0.3) { tracer in
                Flows.cycle(tracer)
            }
        } matching: { issues.matcher()($0) }

        let messages = issues.messages
        #expect(messages.count == 2, "one issue per coordinator left behind: \(messages)")
        #expect(messages.contains {
            $0.hasPrefix("CyclicDetailCoordinator#2 retained: still a child of RootCoordinator#1 (added at CoordinatorTraceTestingTests/FlowCoordinators.swift:")
        })
        #expect(messages.contains {
            $0.hasPrefix("RootCoordinator#1 not released: still alive (added at CoordinatorTraceTestingTests/FlowCoordinators.swift:")
        })
    }

    @Test func coordinatorKeptBeyondTheScopeFails() {
        let issues = RecordedIssues()
        var kept: RootCoordinator?
        withKnownIssue {
            kept = assertCoordinatorsReleased(grace: 0.2) { tracer -> RootCoordinator in
                let root = RootCoordinator(tracer: tracer)
                root.start()
                return root
            }
        } matching: { issues.matcher()($0) }
        #expect(issues.messages.count == 1)
        #expect(issues.messages.first?.hasPrefix("RootCoordinator#1 not released: still alive") == true)
        withExtendedLifetime(kept) {}
    }

    @Test func asyncBodiesAreChecked() async {
        await assertCoordinatorsReleased(grace: 0.3) { tracer in
            await Task.yield()
            Flows.clean(tracer)
        }
        let issues = RecordedIssues()
        await withKnownIssue {
            await assertCoordinatorsReleased(grace: 0.3) { tracer in
                await Task.yield()
                Flows.cycle(tracer)
            }
        } matching: { issues.matcher()($0) }
        #expect(issues.messages.count == 2)
    }

    @Test func scopesRunInParallelWithoutSeeingEachOther() async {
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<4 {
                group.addTask {
                    assertCoordinatorsReleased(grace: 0.3) { tracer in Flows.clean(tracer) }
                }
            }
        }
    }
}
