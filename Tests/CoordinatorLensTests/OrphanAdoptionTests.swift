import CoordinatorLens
import Testing

/// A coordinator added under a parent the session has not seen yet (an app that fills a navigation stack before it
/// shows the stack under its parent) waits for that parent's `add`, and then hangs under it as if added in order.
@Suite struct OrphanAdoptionTests {
    /// The Matrix client's order: Home is the stack's root before the tab that shows it is added under the app.
    private func matrixScript() -> Script {
        var script = Script()
        script.at(0, .add(id: 1, type: "AppCoordinator", parent: nil))
        script.at(0.1, .add(id: 4, type: "HomeScreenCoordinator", parent: 5))
        script.at(0.1, .add(id: 6, type: "SettingsScreenCoordinator", parent: 4))
        script.at(0.2, .add(id: 5, type: "NavigationTabCoordinator", parent: 1))
        script.at(1, .dismiss(id: 6))
        script.at(10, .end)
        return script
    }

    @Test func aChildAddedBeforeItsParentIsAdoptedWithItsSubtree() throws {
        let snapshot = matrixScript().snapshot()
        #expect(snapshot.roots == [1], "one tree, not a root per early child")
        #expect(snapshot.node(4)?.parent == 5)
        #expect(snapshot.node(5)?.children == [4])
        #expect(snapshot.path(to: 6).map(\.id) == [1, 5, 4, 6])
        #expect(snapshot.verdict(6) == .retained)
        #expect(snapshot.node(6)?.reason == "still a child of HomeScreenCoordinator#4")
        #expect(snapshot.node(6)?.reasonKind == .stillChild)
        let groups = snapshot.leakGroups
        #expect(
            groups.map(\.fingerprint.description) == [
                "AppCoordinator/NavigationTabCoordinator/HomeScreenCoordinator/SettingsScreenCoordinator (still-child)"
            ])
        #expect(snapshot.warnings.isEmpty, "the parent came: \(snapshot.warnings)")
    }

    @Test func anAdoptedRootLeakIsNoLongerDetached() throws {
        var script = Script()
        script.at(0, .add(id: 1, type: "AppCoordinator", parent: nil))
        script.at(0.1, .add(id: 4, type: "SettingsScreenCoordinator", parent: 5))
        script.at(0.1, .dismiss(id: 4))
        script.at(0.2, .add(id: 5, type: "HomeScreenCoordinator", parent: 1))
        script.at(10, .end)
        let snapshot = script.snapshot()
        #expect(snapshot.node(4)?.reason == "still a child of HomeScreenCoordinator#5", "not a root that is done but still alive")
        #expect(snapshot.node(4)?.reasonKind == .stillChild)
        let check = SessionCheck(source: "matrix.ndjson", snapshot: snapshot, atEnd: true)
        #expect(LeakReport.text(for: check).contains("    path: AppCoordinator#1 › HomeScreenCoordinator#5 › SettingsScreenCoordinator#4"))
    }

    @Test func aParentThatNeverComesIsWarnedOnceAtTheEndOrTheCut() throws {
        var script = Script()
        script.at(0, .add(id: 1, type: "AppCoordinator", parent: nil))
        script.at(0.1, .add(id: 2, type: "HomeScreenCoordinator", parent: 9))
        script.at(0.2, .add(id: 3, type: "RoomCoordinator", parent: 8))
        script.at(0.3, .add(id: 8, type: "RoomListCoordinator", parent: 1))
        let warnings = script.snapshot().warnings
        #expect(warnings.map(\.message) == ["add of HomeScreenCoordinator#2 under unknown parent 9: kept as a root"])
        #expect(warnings.first?.line == 3, "at the line of the add")
        #expect(script.snapshot().roots == [1, 2])

        // At a cut before the parent's add, the parent has not come by that point.
        var early = Script()
        early.at(0, .add(id: 1, type: "AppCoordinator", parent: nil))
        early.at(0.1, .add(id: 3, type: "RoomCoordinator", parent: 8))
        #expect(early.snapshot().warnings.map(\.message) == ["add of RoomCoordinator#3 under unknown parent 8: kept as a root"])

        // Written when read, it still takes its line's place among the others.
        var among = Script()
        among.at(0, .dismiss(id: 7))
        among.at(0.1, .add(id: 2, type: "Home", parent: 9))
        among.at(0.2, .remove(id: 5, parent: nil))
        #expect(among.snapshot().warnings.map(\.line) == [2, 3, 4])
    }

    @Test func anAdoptionThatWouldCloseACycleKeepsTheChildARoot() throws {
        var script = Script()
        script.at(0, .add(id: 2, type: "Home", parent: 3))
        script.at(0.1, .add(id: 3, type: "Tab", parent: 2))
        let snapshot = script.snapshot()
        #expect(snapshot.roots == [2])
        #expect(snapshot.node(3)?.parent == 2)
        #expect(snapshot.warnings.map(\.message) == ["adopting Home#2 under Tab#3 would make a parent cycle: kept as a root"])
    }

    @Test func whatTheAppDidBeforeTheParentCameIsNotUndone() throws {
        var script = Script()
        script.at(0, .add(id: 1, type: "App", parent: nil))
        script.at(0.1, .add(id: 2, type: "Moved", parent: 9))
        script.at(0.2, .add(id: 2, type: "Moved", parent: 1))
        script.at(0.3, .add(id: 3, type: "Removed", parent: 9))
        script.at(0.4, .remove(id: 3, parent: 9))
        script.at(0.5, .add(id: 9, type: "Late", parent: 1))
        script.at(10, .end)
        let snapshot = script.snapshot()
        #expect(snapshot.node(2)?.parent == 1, "added again elsewhere: stays there")
        #expect(snapshot.node(3)?.parent == nil, "removed before its parent came: not adopted")
        #expect(snapshot.verdict(3) == .retained, "removed is done")
        #expect(snapshot.node(9)?.children == [])
        #expect(snapshot.warnings.isEmpty, "\(snapshot.warnings)")
    }
}
