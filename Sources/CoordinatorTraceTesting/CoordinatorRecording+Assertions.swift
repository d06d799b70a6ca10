import CoordinatorLens

extension CoordinatorRecording {
    /// Waits out the grace period of coordinators that are done, then fails the test with one line per retained
    /// coordinator: type, id, reason, and where it was added. Coordinators still in use are fine.
    @discardableResult
    public func assertNoRetainedCoordinators(
        grace: Double = CoordinatorRecording.defaultGrace, timeout: Double? = nil,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) -> Snapshot {
        let snapshot = settle(grace: grace, timeout: timeout)
        report(
            LeakFailures.retained(in: snapshot, heldBy: holders(of: snapshot)),
            at: FailureLocation(fileID: fileID, filePath: filePath, line: line, column: column))
        return snapshot
    }

    /// Waits until every coordinator recorded has deinited, for at most the grace period and a little slack, then
    /// fails the test with one line per coordinator that has not: retained, or still alive.
    @discardableResult
    public func assertAllReleased(
        grace: Double = CoordinatorRecording.defaultGrace, timeout: Double? = nil,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) -> Snapshot {
        let snapshot = settle(grace: grace, timeout: timeout, untilReleased: true)
        report(LeakFailures.notReleased(in: snapshot), at: FailureLocation(fileID: fileID, filePath: filePath, line: line, column: column))
        return snapshot
    }

    /// `assertAllReleased` for async tests: it waits without holding a thread.
    @discardableResult
    public func assertAllReleased(
        grace: Double = CoordinatorRecording.defaultGrace, timeout: Double? = nil,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) async -> Snapshot {
        let snapshot = await settle(grace: grace, timeout: timeout, untilReleased: true)
        report(LeakFailures.notReleased(in: snapshot), at: FailureLocation(fileID: fileID, filePath: filePath, line: line, column: column))
        return snapshot
    }

    /// The scopes' first step: the retained ones fail; returns their ids so the second step does not report them again.
    func assertNoRetainedCoordinators<Kept>(grace: Double, keeping: Kept.Type, at location: FailureLocation) -> Set<CoordinatorID> {
        judgeWhileKept(settle(grace: grace), keeping: keeping, at: location)
    }

    func assertNoRetainedCoordinators<Kept>(grace: Double, keeping: Kept.Type, at location: FailureLocation) async -> Set<CoordinatorID> {
        judgeWhileKept(await settle(grace: grace), keeping: keeping, at: location)
    }

    private func judgeWhileKept<Kept>(_ snapshot: Snapshot, keeping: Kept.Type, at location: FailureLocation) -> Set<CoordinatorID> {
        // With nothing returned, a root freed as the closure returned took its finished children with it, unjudged.
        if Kept.self == Void.self {
            let freedRoots = snapshot.nodes.filter { $0.parent == nil && $0.removedFrom == nil && $0.deinitAt != nil }
            if let root = freedRoots.first {
                report(
                    [
                        TextSanitizer.visible(
                            "\(root.type)#\(root.id) was freed when the closure returned, before anything could be judged while the "
                                + "app lived: return it (what the app keeps) from the closure"
                        )
                    ], at: location)
            }
        }
        report(LeakFailures.retained(in: snapshot, heldBy: holders(of: snapshot)), at: location)
        return Set(snapshot.retained.map(\.id))
    }

    /// The scopes' second step, once what the app kept is released: everything else must be freed.
    func assertAllReleased(grace: Double, excluding reported: Set<CoordinatorID>, at location: FailureLocation) {
        let snapshot = settle(grace: grace, untilReleased: true)
        report(LeakFailures.notReleased(in: snapshot, excluding: reported), at: location)
    }

    func assertAllReleased(grace: Double, excluding reported: Set<CoordinatorID>, at location: FailureLocation) async {
        let snapshot = await settle(grace: grace, untilReleased: true)
        report(LeakFailures.notReleased(in: snapshot, excluding: reported), at: location)
    }

    /// Who holds each retained coordinator, found by the hook's retainer search on the test's thread (each once per
    /// session); empty when nothing is retained.
    func holders(of snapshot: Snapshot) -> [CoordinatorID: LeakFailures.Holder] {
        guard !snapshot.retained.isEmpty else { return [:] }
        var found: [CoordinatorID: LeakFailures.Holder] = [:]
        for path in tracer.searchRetainers() { found[CoordinatorID(path.coordinator)] = (path.description, HeldBy(path)) }
        return found
    }

    private func report(_ messages: [String], at location: FailureLocation) {
        for message in messages { TestFailure.record(message, at: location) }
    }
}
