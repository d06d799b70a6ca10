import CoordinatorTrace
import CoordinatorTraceTesting
import Foundation
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
        } matching: {
            issues.matcher()($0)
        }

        let messages = issues.messages
        #expect(messages.count == 2, "one issue per coordinator left behind: \(messages)")
        #expect(
            messages.contains {
                $0.hasPrefix(
                    "CyclicDetailCoordinator#2 retained: still a child of RootCoordinator#1 (added at CoordinatorTraceTestingTests/FlowCoordinators.swift:")
            })
        #expect(
            messages.contains {
                $0.hasPrefix("RootCoordinator#1 not released: still alive (added at CoordinatorTraceTestingTests/FlowCoordinators.swift:")
            })
    }

    /// A cycle and the leaks below it are one cause: one failure that names the cause first, then each coordinator,
    /// not four unrelated failures.
    @Test func aCycleAndTheLeaksBelowItFailOnceNamingTheCause() {
        let issues = RecordedIssues()
        withKnownIssue {
            assertCoordinatorsReleased(grace: 0.2) { tracer in
                Flows.tabCycle(tracer, children: 3)
            }
        } matching: {
            issues.matcher()($0)
        }
        #expect(issues.messages.count == 1, "\(issues.messages)")
        let lines = issues.messages.first?.split(separator: "\n").map(String.init) ?? []
        #expect(lines.count == 5, "the cause, then a line per coordinator: \(lines)")
        #if RetainerSearch
        #expect(lines.first?.hasPrefix("cause: a cycle through TabFlowCoordinator.onSelect (") == true, "\(lines)")
        #else
        #expect(lines.first?.hasPrefix("cause: TabFlowCoordinator detached from RootCoordinator") == true, "\(lines)")
        #endif
        #expect(lines.first?.hasSuffix(" keeps 4 coordinators (1 directly, 3 held through it)") == true, "\(lines)")
        #expect(lines.dropFirst().first?.hasPrefix("  TabFlowCoordinator#2 retained: ") == true, "\(lines)")
        #expect(lines.dropFirst(2).allSatisfy { $0.hasPrefix("  DetailCoordinator#") && $0.contains(" retained: still a child of TabFlowCoordinator#2") })
    }

    /// The README's example: the whole app lives inside the scope. A child its parent never removes must fail while
    /// the returned root lives, although everything is freed together once the root goes.
    @Test func childNeverRemovedFailsWhileTheReturnedRootLives() {
        let issues = Self.failuresOfAChildNeverRemoved(options: TraceOptions())
        #expect(issues.messages.count == 1, "\(issues.messages)")
        #expect(issues.messages.first?.hasPrefix("DetailCoordinator#2 retained: still a child of HomeCoordinator#1") == true)
        // The leak trace, found in this process: which field of which object holds it.
        #if RetainerSearch
        let held = "HomeCoordinator#1.children[0] (element) › DetailCoordinator#2"
        #else
        let held = "DetailCoordinator#2: not searched: this build leaves the search out (the package's RetainerSearch trait is off)"
        #endif
        #expect(issues.messages.first?.hasSuffix("; held by: \(held)") == true, "\(issues.messages)")
    }

    /// A scope takes the hook's options: with the retainer search off the leak still fails the test, and the failure
    /// says that no search ran and why, rather than leaving the holder out without a word.
    @Test func aScopeWithTheSearchOffFailsAndSaysItDidNotSearch() {
        let issues = Self.failuresOfAChildNeverRemoved(options: TraceOptions(retainerSearch: RetainerSearchOptions(isEnabled: false)))
        #expect(issues.messages.count == 1, "\(issues.messages)")
        #expect(issues.messages.count == 1, "\(issues.messages)")
        #expect(
            issues.messages.first?.hasSuffix("; held by: DetailCoordinator#2: not searched: the search is off (TraceOptions.retainerSearch.isEnabled)") == true,
            "\(issues.messages)")
    }

    /// What a scope with `options` records of a flow whose parent never removes its finished child.
    private static func failuresOfAChildNeverRemoved(options: TraceOptions) -> RecordedIssues {
        let issues = RecordedIssues()
        withKnownIssue {
            assertCoordinatorsReleased(grace: 0.2, options: options) { tracer in
                let home = HomeCoordinator(tracer: tracer, removesFinishedChildren: false)
                home.start()
                home.showSettings()()
                return home
            }
        } matching: {
            issues.matcher()($0)
        }
        return issues
    }

    @Test func childRemovedByItsParentPasses() {
        assertCoordinatorsReleased(grace: 0.2) { tracer in
            let home = HomeCoordinator(tracer: tracer, removesFinishedChildren: true)
            home.start()
            home.showSettings()()
            return home
        }
    }

    /// Returning nothing lets the root die with the closure, so nothing could be judged while the app lived: that must
    /// not pass silently, whether or not the flow leaks.
    @Test func closureThatLetsTheRootGoFails() {
        for removes in [false, true] {
            let issues = RecordedIssues()
            withKnownIssue {
                assertCoordinatorsReleased(grace: 0.2) { tracer in
                    let home = HomeCoordinator(tracer: tracer, removesFinishedChildren: removes)
                    home.start()
                    home.showSettings()()
                }
            } matching: {
                issues.matcher()($0)
            }
            #expect(issues.messages.count == 1)
            #expect(issues.messages.first?.hasPrefix("HomeCoordinator#1 was freed when the closure returned") == true)
        }
    }

    @Test func coordinatorKeptBeyondTheScopeFails() {
        let issues = RecordedIssues()
        var kept: RootCoordinator?
        withKnownIssue {
            assertCoordinatorsReleased(grace: 0.2) { tracer -> Int in
                let root = RootCoordinator(tracer: tracer)
                root.start()
                kept = root
                return 0
            }
        } matching: {
            issues.matcher()($0)
        }
        #expect(issues.messages.count == 1)
        #expect(issues.messages.first?.hasPrefix("RootCoordinator#1 not released: still alive") == true)
        withExtendedLifetime(kept) {}
    }

    @Test func asyncBodiesAreChecked() async {
        await assertCoordinatorsReleased(grace: 0.3) { tracer in
            await Task.yield()
            return Flows.clean(tracer)
        }
        let issues = RecordedIssues()
        await withKnownIssue {
            await assertCoordinatorsReleased(grace: 0.3) { tracer in
                await Task.yield()
                return Flows.cycle(tracer)
            }
        } matching: {
            issues.matcher()($0)
        }
        #expect(issues.messages.count == 2)
    }

    /// Passing scopes decide at once, without waiting out their grace period, also many at a time on a 2-core machine.
    /// Each times itself, so that waiting for a free thread in a busy test run does not count.
    @Test func passingScopesInParallelDoNotWaitOutTheGrace() async {
        let durations = await withTaskGroup(of: Double.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    let started = Date()
                    assertCoordinatorsReleased(grace: 10) { tracer in Flows.clean(tracer) }
                    return Date().timeIntervalSince(started)
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(durations.allSatisfy { $0 < 5 }, "a passing scope waited for its grace period: \(durations)")
    }
}
