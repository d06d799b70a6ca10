import CoordinatorLens
import Testing

/// Moves cost the smaller of the new parent's depth and the moved subtree's size, counted in the parent-cycle
/// check's steps (`SessionTree.cycleCheckSteps`), not timed: the 80,000 moves into a deep chain took 29.1 s.
@Suite struct MoveCostTests {
    /// A chain `1 › 2 › … › depth` and a flow of `size` coordinators under its own root, ids from 1,000,000.
    private func chainAndFlow(depth: Int, size: Int) -> Script {
        var script = Script()
        script.at(0, .add(id: 1, type: "App", parent: nil))
        for id in 2...depth { script.at(0, .add(id: CoordinatorID(id), type: "Step", parent: CoordinatorID(id - 1))) }
        script.at(0, .add(id: 1_000_000, type: "Flow", parent: nil))
        for id in 1_000_001..<(1_000_000 + size) {
            script.at(0, .add(id: CoordinatorID(id), type: "Screen", parent: CoordinatorID((id - 1_000_000) / 2 + 1_000_000)))
        }
        return script
    }

    @Test func movingAFlowAroundTheBottomOfADeepChainWalksTheFlowNotTheChain() {
        var script = chainAndFlow(depth: 20_000, size: 40)
        let moves = 4_000
        for move in 0..<moves {
            script.at(1, .add(id: 1_000_000, type: "Flow", parent: CoordinatorID(20_000 - move % 50)))
        }
        let tree = script.tree()
        #expect(tree.diagnostics.isEmpty)
        #expect(tree[1_000_000]?.parent == CoordinatorID(20_000 - (moves - 1) % 50))
        // Each move: at most one step a node of the flow, and its stale entries, twice (both walks step together).
        #expect(tree.cycleCheckSteps <= moves * 2 * (40 + 2), "\(tree.cycleCheckSteps) steps for \(moves) moves")
    }

    @Test func movingADeepChainUnderAShallowParentWalksTheParentNotTheChain() {
        var script = chainAndFlow(depth: 20_000, size: 40)
        let moves = 4_000
        for move in 0..<moves {
            // The chain's top goes under a screen of the flow, three levels down, and back under the flow's root.
            script.at(1, .add(id: 1, type: "App", parent: move % 2 == 0 ? 1_000_007 : 1_000_000))
        }
        let tree = script.tree()
        #expect(tree.diagnostics.isEmpty)
        #expect(tree.cycleCheckSteps <= moves * 2 * 5, "\(tree.cycleCheckSteps) steps for \(moves) moves")
    }

    @Test func aMoveThatWouldCloseACycleIsStillRefusedFromEitherWalk() {
        // Found walking down: the chain's top under its own bottom (the flow is the bigger side here).
        var script = chainAndFlow(depth: 30, size: 3)
        script.at(1, .add(id: 1, type: "App", parent: 30))
        // Found walking up: the flow's root under one of its own screens.
        script.at(1, .add(id: 1_000_000, type: "Flow", parent: 1_000_002))
        // Through a former parent: a screen removed from the flow is still on the way up from it.
        script.at(1, .remove(id: 1_000_001, parent: 1_000_000))
        script.at(1, .add(id: 1_000_000, type: "Flow", parent: 1_000_001))
        let tree = script.tree()
        let refusals = tree.diagnostics.map(\.message).filter { $0.contains("would make a parent cycle") }
        #expect(refusals.count == 3, "\(tree.diagnostics.map(\.message))")
        #expect(refusals.last?.contains("through Screen#1000001's former parent Flow#1000000") == true, "\(refusals)")
        #expect(tree[1]?.parent == nil)
        #expect(tree[1_000_000]?.parent == nil)
    }
}
