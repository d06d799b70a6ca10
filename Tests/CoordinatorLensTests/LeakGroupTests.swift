import CoordinatorLens
import Testing

/// The inspector's leaks panel: retained coordinators grouped by the fingerprint `diff` and `check --summary` use.
struct LeakGroupTests {
    @Test func groupsByTypePathAndReasonBiggestFirst() {
        var tree = SessionTree(header: SessionHeader(app: "Shop", run: "r"))
        var seq = 0
        func apply(_ event: Event, at time: Double = 0) {
            seq += 1
            tree.apply(EventRecord(seq: seq, time: time, event: event))
        }
        apply(.add(id: 1, type: "AppCoordinator", parent: nil))
        for id in 2...4 { apply(.add(id: CoordinatorID(id), type: "FeedCoordinator", parent: 1)) }
        apply(.add(id: 5, type: "CheckoutCoordinator", parent: 1))
        apply(.add(id: 6, type: "FeedCoordinator", parent: 5))
        for id in [2, 3, 5, 6] { apply(.dismiss(id: CoordinatorID(id)), at: 1) }
        let groups = tree.snapshot(at: 10, grace: 2).leakGroups
        #expect(
            groups.map(\.fingerprint.description) == [
                "AppCoordinator/FeedCoordinator (still-child)",
                "AppCoordinator/CheckoutCoordinator (still-child)",
                "AppCoordinator/CheckoutCoordinator/FeedCoordinator (still-child)",
            ])
        #expect(groups.map(\.ids) == [[2, 3], [5], [6]])
    }
}
