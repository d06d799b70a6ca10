import CoordinatorLens
import Testing

@Suite struct VerdictRuleTests {
    @Test func notDoneAndNotDeinitedIsAlive() {
        var script = Script()
        script.at(0, .add(id: 1, type: "App", parent: nil))
        script.at(1, .add(id: 2, type: "Home", parent: 1))
        let snapshot = script.snapshot(at: 100)
        #expect(snapshot.verdict(1) == .alive)
        #expect(snapshot.verdict(2) == .alive)
    }

    @Test func dismissedWithinGraceIsPendingThenRetained() {
        var script = Script()
        script.at(0, .add(id: 1, type: "App", parent: nil))
        script.at(0, .add(id: 2, type: "Modal", parent: 1))
        script.at(1, .dismiss(id: 2))
        #expect(script.snapshot(at: 3).verdict(2) == .pending, "E − d = 2 is not more than G")
        let later = script.snapshot(at: 3.01)
        #expect(later.verdict(2) == .retained)
        #expect(later.node(2)?.reason == "still a child of App#1")
        #expect(later.node(2)?.reasonKind == .stillChild)
    }

    @Test func evaluationDefaultsToTheLastEventsTime() {
        var script = Script()
        script.at(0, .add(id: 1, type: "Modal", parent: nil))
        script.at(1, .dismiss(id: 1))
        script.at(1.5, .mark(label: "soon"))
        #expect(script.snapshot().evaluatedAt == 1.5)
        #expect(script.snapshot().verdict(1) == .pending)
        script.at(10, .end)
        #expect(script.snapshot().verdict(1) == .retained)
    }

    @Test func removedAndStillAliveIsDetached() {
        var script = Script()
        script.at(0, .add(id: 1, type: "App", parent: nil))
        script.at(0, .add(id: 2, type: "Flow", parent: 1))
        script.at(1, .remove(id: 2, parent: 1))
        let snapshot = script.snapshot(at: 5)
        #expect(snapshot.verdict(2) == .retained)
        #expect(snapshot.node(2)?.reason == "detached from App#1; still alive: something else holds it, often a closure or delegate capturing it")
        #expect(snapshot.node(2)?.reasonKind == .detached)
        #expect(snapshot.path(to: 2).map(\.id) == [1, 2], "shown under the parent it left")
        #expect(snapshot.node(2)?.parent == nil)
        #expect(snapshot.roots == [1, 2])
    }

    @Test func doneRootStillAliveIsDetachedWithoutAFormerParent() {
        var script = Script()
        script.at(0, .add(id: 1, type: "Onboarding", parent: nil))
        script.at(1, .dismiss(id: 1))
        #expect(script.snapshot(at: 5).node(1)?.reason?.hasPrefix("a root that is done but still alive") == true)
    }

    @Test func reAddingCancelsTheRemove() {
        var script = Script()
        script.at(0, .add(id: 1, type: "App", parent: nil))
        script.at(0, .add(id: 2, type: "Other", parent: nil))
        script.at(0, .add(id: 3, type: "Flow", parent: 1))
        script.at(1, .remove(id: 3, parent: 1))
        script.at(1.5, .add(id: 3, type: "Flow", parent: 2))
        let snapshot = script.snapshot(at: 10)
        #expect(snapshot.verdict(3) == .alive)
        #expect(snapshot.node(3)?.parent == 2)
        #expect(snapshot.node(1)?.children == [])
        #expect(snapshot.node(2)?.children == [3])
    }

    @Test func reAddingDoesNotCancelADismiss() {
        var script = Script()
        script.at(0, .add(id: 1, type: "App", parent: nil))
        script.at(0, .add(id: 2, type: "Flow", parent: 1))
        script.at(1, .dismiss(id: 2))
        script.at(1.2, .add(id: 2, type: "Flow", parent: 1))
        #expect(script.snapshot(at: 10).verdict(2) == .retained)
    }

    @Test func childThatOutlivesItsParentIsOrphaned() {
        var script = Script()
        script.at(0, .add(id: 1, type: "App", parent: nil))
        script.at(0, .add(id: 2, type: "Parent", parent: 1))
        script.at(0, .add(id: 3, type: "Child", parent: 2))
        script.at(1, .remove(id: 2, parent: 1))
        script.at(1.1, .deinitialized(id: 2))
        #expect(script.snapshot(at: 2).verdict(3) == .pending)
        let snapshot = script.snapshot(at: 4)
        #expect(snapshot.verdict(2) == .released)
        #expect(snapshot.verdict(3) == .retained)
        #expect(snapshot.node(3)?.reason == "outlived its parent Parent#2")
        #expect(snapshot.node(3)?.doneAt == 1.1)
    }

    @Test func deinitWithinGraceIsReleasedAndAfterGraceIsLate() {
        var script = Script()
        script.at(0, .add(id: 1, type: "App", parent: nil))
        script.at(0, .add(id: 2, type: "Quick", parent: 1))
        script.at(0, .add(id: 3, type: "Slow", parent: 1))
        script.at(1, .dismiss(id: 2))
        script.at(1, .dismiss(id: 3))
        script.at(3, .deinitialized(id: 2))
        script.at(3.5, .deinitialized(id: 3))
        let snapshot = script.snapshot(at: 10)
        #expect(snapshot.verdict(2) == .released)
        #expect(snapshot.verdict(3) == .late)
        #expect(snapshot.node(3)?.reason?.contains("2.5 s after it was done") == true)
    }

    @Test func deinitWithoutEverBeingDoneIsReleasedNotAnError() {
        var script = Script()
        script.at(0, .add(id: 1, type: "App", parent: nil))
        script.at(0.1, .add(id: 2, type: "FreedAfterStart", parent: nil))
        script.at(0.1, .deinitialized(id: 2))
        let tree = script.tree()
        #expect(tree.snapshot(at: 100).verdict(2) == .released)
        #expect(tree.diagnostics.isEmpty)
    }

    @Test func doneIsTheFirstOfItsCauses() {
        var script = Script()
        script.at(0, .add(id: 1, type: "App", parent: nil))
        script.at(0, .add(id: 2, type: "Flow", parent: 1))
        script.at(1, .remove(id: 2, parent: 1))
        script.at(4, .dismiss(id: 2))
        script.at(4.5, .deinitialized(id: 2))
        #expect(script.snapshot(at: 5).node(2)?.doneAt == 1)
        #expect(script.snapshot(at: 5).verdict(2) == .late)
    }

    @Test func graceIsAParameter() {
        var script = Script()
        script.at(0, .add(id: 1, type: "Modal", parent: nil))
        script.at(1, .dismiss(id: 1))
        #expect(script.snapshot(at: 6, grace: 10).verdict(1) == .pending)
        #expect(script.snapshot(at: 6, grace: 0.5).verdict(1) == .retained)
    }
}
