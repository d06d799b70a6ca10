import CoordinatorLens

/// Snapshots made the way the app makes them: by replaying events through the core's `SessionTree`.
enum Fixtures {
    /// Replays `events` (time, event) in order and judges the tree at `evaluatedAt` with a 2 s grace.
    static func replay(
        app: String = "Shop", run: String = "run-1", _ events: [(Double, Event)], at evaluatedAt: Double
    ) -> Snapshot {
        var tree = SessionTree(header: SessionHeader(app: app, run: run, pid: 42))
        for (index, (time, event)) in events.enumerated() {
            tree.apply(EventRecord(seq: index + 1, time: time, event: event, line: index + 1))
        }
        return tree.snapshot(at: evaluatedAt, grace: 2)
    }

    /// At t = 10 s:
    /// - App#1 (alive) holds Tab#2 (alive), which still holds Checkout#3 (dismissed at 1 s: retained) and
    ///   Settings#5 (dismissed at 9 s: pending);
    /// - Profile#4 was removed and deinited (released, now a root);
    /// - Onboarding#6 deinited while Welcome#7 was attached (Welcome retained, outlived its parent);
    /// - Legacy#8 deinited 4 s after its dismissal (late).
    static func shop() -> Snapshot {
        replay(
            [
                (0, .add(id: 1, type: "AppCoordinator", parent: nil)),
                (0.1, .add(id: 2, type: "TabCoordinator", parent: 1)),
                (0.2, .add(id: 3, type: "CheckoutCoordinator", parent: 2)),
                (0.3, .bind(id: 3, screen: "CheckoutScreen")),
                (1, .dismiss(id: 3)),
                (1.5, .add(id: 4, type: "ProfileCoordinator", parent: 2)),
                (2, .dismiss(id: 4)),
                (2.1, .remove(id: 4, parent: 2)),
                (2.2, .deinitialized(id: 4)),
                (3, .add(id: 5, type: "SettingsCoordinator", parent: 2)),
                (4, .add(id: 6, type: "OnboardingCoordinator", parent: 1)),
                (4.1, .add(id: 7, type: "WelcomeCoordinator", parent: 6)),
                (5, .deinitialized(id: 6)),
                (5, .add(id: 8, type: "LegacyCoordinator", parent: 1)),
                (5.5, .dismiss(id: 8)),
                (9, .dismiss(id: 5)),
                (9.5, .deinitialized(id: 8)),
            ], at: 10)
    }
}
