import Testing

@testable import CoordinatorLens

/// Real apps' lifecycles: coordinators shown again, kept for reuse, piled up without screens, and baselines of one
/// flow checked against runs of another.
@Suite struct LifecycleTests {
    /// A library coordinator swiped down (its screen left) and shown again on the same screen three seconds later.
    func reshownLibrary() -> Script {
        var script = Script()
        script.at(0, .add(id: 1, type: "BrowserCoordinator", parent: nil))
        script.at(0.1, .add(id: 2, type: "LibraryCoordinator", parent: 1))
        script.at(0.1, .bind(id: 2, screen: "LibraryViewController"))
        script.at(1, .dismiss(id: 2, via: .screenLeft))
        script.at(4, .bind(id: 2, screen: "LibraryViewController"))
        return script
    }

    @Test func shownAgainIsAliveAndStaysAlivePastTheGrace() {
        let script = reshownLibrary()
        var beforeReopen = Script()
        for record in script.records.dropLast() { beforeReopen.at(record.time, record.event) }
        #expect(beforeReopen.snapshot(at: 3.5).verdict(2) == .retained, "between the swipe-down and the reopen it was done")
        let later = script.snapshot(at: 60)
        #expect(later.verdict(2) == .alive)
        #expect(later.node(2)?.doneAt == nil)
        #expect(later.node(2)?.shownAgain == [Reappearance(dismissedAt: 1, dismissedVia: .screenLeft, shownAt: 4, screen: "LibraryViewController")])
    }

    @Test func shownAgainThenDismissedAgainIsJudgedFromTheSecondDismissal() {
        var script = reshownLibrary()
        script.at(10, .dismiss(id: 2, via: .screenLeft))
        #expect(script.snapshot(at: 11).verdict(2) == .pending)
        let snapshot = script.snapshot(at: 13)
        #expect(snapshot.verdict(2) == .retained)
        #expect(snapshot.node(2)?.dismissedAt == 10)
        #expect(snapshot.node(2)?.shownAgain?.count == 1)
    }

    @Test func aBindBeforeAnyDismissalChangesNothingButTheScreen() {
        var script = Script()
        script.at(0, .add(id: 1, type: "Flow", parent: nil))
        script.at(0, .bind(id: 1, screen: "First"))
        script.at(1, .bind(id: 1, screen: "Second"))
        let snapshot = script.snapshot(at: 5)
        #expect(snapshot.node(1)?.shownAgain == nil)
        #expect(snapshot.node(1)?.screen == "Second")
    }

    @Test func aRemovedCoordinatorShownAgainIsStillDetached() {
        var script = Script()
        script.at(0, .add(id: 1, type: "App", parent: nil))
        script.at(0, .add(id: 2, type: "Flow", parent: 1))
        script.at(1, .remove(id: 2, parent: 1))
        script.at(2, .bind(id: 2, screen: "Screen"))
        #expect(script.snapshot(at: 10).node(2)?.reasonKind == .detached, "only add undoes a remove")
    }

    /// Two library coordinators each dismissed while their parent keeps them.
    func twoCachedLibraries() -> Script {
        var script = Script()
        script.at(0, .add(id: 1, type: "BrowserCoordinator", parent: nil))
        script.at(0.1, .add(id: 2, type: "LibraryCoordinator", parent: 1))
        script.at(1, .dismiss(id: 2, via: .screenLeft))
        script.at(2, .add(id: 3, type: "LibraryCoordinator", parent: 1))
        script.at(3, .dismiss(id: 3, via: .screenLeft))
        return script
    }

    @Test func aDeclaredReusableTypeHeldByItsParentIsKeptNotRetained() {
        var script = twoCachedLibraries()
        script.at(0, .expect(AliveLimit(type: "LibraryCoordinator", maximum: 2, scope: .reuse)))
        let snapshot = script.snapshot(at: 20)
        #expect(snapshot.verdict(2) == .alive)
        #expect(snapshot.verdict(3) == .alive)
        #expect(snapshot.node(3)?.kept == KeptForReuse(limit: 2, parentType: "BrowserCoordinator", parentID: 1, doneAt: 3))
        #expect(snapshot.node(3)?.reason?.hasPrefix("kept for reuse by BrowserCoordinator#1") == true)
        #expect(snapshot.retained.isEmpty)
    }

    @Test func oneMoreThanTheReuseCountMakesTheOldestALeak() {
        let tree = twoCachedLibraries().tree()
        let snapshot = tree.snapshot(at: 20, limits: [AliveLimit(type: "LibraryCoordinator", maximum: 1, scope: .reuse)])
        #expect(snapshot.retained.map(\.id) == [2])
        #expect(snapshot.node(2)?.reason?.contains("2 LibraryCoordinator are held after they were done where 1 kept for reuse is declared") == true)
        #expect(snapshot.node(3)?.kept != nil)
    }

    @Test func aReusableTypeThatIsDetachedOrOrphanedIsNotKept() {
        var script = Script()
        script.at(0, .add(id: 1, type: "App", parent: nil))
        script.at(0, .add(id: 2, type: "Library", parent: 1))
        script.at(1, .dismiss(id: 2))
        script.at(1, .remove(id: 2, parent: 1))
        let snapshot = script.tree().snapshot(at: 20, limits: [AliveLimit(type: "Library", maximum: 1, scope: .reuse)])
        #expect(snapshot.verdict(2) == .retained, "its parent let go of it: something else holds it")
    }

    @Test func aReuseDeclarationLimitsNoLivingCount() {
        var script = Script()
        script.at(0, .add(id: 1, type: "App", parent: nil))
        for id in 2...4 { script.at(Double(id), .add(id: CoordinatorID(id), type: "Library", parent: 1)) }
        let snapshot = script.tree().snapshot(at: 20, limits: [AliveLimit(type: "Library", maximum: 0, scope: .reuse)])
        #expect(snapshot.retained.isEmpty)
    }

    /// A tab tray that creates a panel coordinator on every switch; the fixed build removes the previous one.
    func panels(switches: Int, fixed: Bool) -> Snapshot {
        var script = Script()
        script.at(0, .add(id: 1, type: "BrowserCoordinator", parent: nil))
        script.at(0, .add(id: 2, type: "TabTrayCoordinator", parent: 1))
        for number in 0..<switches {
            let id = CoordinatorID(10 + number)
            script.at(Double(number + 1), .add(id: id, type: "TabPanelCoordinator", parent: 2))
            if fixed, number > 0 {
                let previous = CoordinatorID(9 + number)
                script.at(Double(number + 1), .remove(id: previous, parent: 2))
                script.at(Double(number + 1), .deinitialized(id: previous))
            }
        }
        script.at(Double(switches + 5), .end)
        return script.snapshot()
    }

    @Test func theCensusCountsCoordinatorsInUseOnEveryPath() {
        let census = PathCensus(panels(switches: 9, fixed: false))
        let path = PathCensus.Path(types: ["BrowserCoordinator", "TabTrayCoordinator", "TabPanelCoordinator"])
        #expect(census.alive[path] == 9)
        #expect(PathCensus(panels(switches: 9, fixed: true)).alive[path] == 1)
        #expect(census.exercised(PathCensus.Path(types: ["BrowserCoordinator"])))
        #expect(!census.exercised(PathCensus.Path(types: ["BrowserCoordinator", "LibraryCoordinator"])))
    }

    @Test func aBaselineFromTheFixedRunFailsThePileUpWithBothCounts() {
        let fixed = SessionCheck(source: "fixed", snapshot: panels(switches: 9, fixed: true), atEnd: true)
        let leaking = SessionCheck(source: "leaking", snapshot: panels(switches: 9, fixed: false), atEnd: true)
        let baseline = LeakBaseline(checks: [fixed])
        let comparison = BaselineComparison(CheckResult(grace: 2, sessions: [leaking]), baseline: baseline)
        #expect(comparison.failsOnPileUps)
        #expect(comparison.pileUps.map(\.count) == [9])
        #expect(comparison.pileUps.map(\.allowed) == [1])
        let text = comparison.text(baseline: "b.json", sessions: [leaking], entries: baseline)
        #expect(text.contains("PILED UP 9 TabPanelCoordinator in use under BrowserCoordinator/TabTrayCoordinator at the end of the run, 1 in the baseline"))
        let again = BaselineComparison(CheckResult(grace: 2, sessions: [fixed]), baseline: baseline)
        #expect(!again.failsOnPileUps, "the fixed run against its own baseline")
    }

    @Test func aBaselineEntryNoCheckedRunExercisedIsNotExercisedRatherThanFixed() {
        var library = Script()
        library.at(0, .add(id: 1, type: "BrowserCoordinator", parent: nil))
        library.at(0, .add(id: 2, type: "LibraryCoordinator", parent: 1))
        library.at(1, .dismiss(id: 2))
        library.at(10, .end)
        let libraryRun = SessionCheck(source: "library", snapshot: library.snapshot(), atEnd: true)
        let baseline = LeakBaseline(checks: [libraryRun])
        #expect(baseline.counts.count == 1)
        let tabTrayRun = SessionCheck(source: "tabs", snapshot: panels(switches: 2, fixed: true), atEnd: true)
        let other = BaselineComparison(CheckResult(grace: 2, sessions: [tabTrayRun]), baseline: baseline)
        #expect(other.fixed.isEmpty)
        #expect(other.notExercised.count == 1)
        let text = other.text(baseline: "b.json", sessions: [tabTrayRun], entries: baseline)
        #expect(!text.contains("remove it from the baseline"))
        #expect(text.contains("not exercised BrowserCoordinator/LibraryCoordinator (still-child)"))

        var fixedLibrary = Script()
        fixedLibrary.at(0, .add(id: 1, type: "BrowserCoordinator", parent: nil))
        fixedLibrary.at(0, .add(id: 2, type: "LibraryCoordinator", parent: 1))
        fixedLibrary.at(1, .dismiss(id: 2))
        fixedLibrary.at(1.5, .deinitialized(id: 2))
        fixedLibrary.at(10, .end)
        let fixedRun = SessionCheck(source: "library-fixed", snapshot: fixedLibrary.snapshot(), atEnd: true)
        let fixed = BaselineComparison(CheckResult(grace: 2, sessions: [fixedRun]), baseline: baseline)
        #expect(fixed.fixed.count == 1, "exercised and not leaking: fixed")
        #expect(fixed.notExercised.isEmpty)
    }
}
