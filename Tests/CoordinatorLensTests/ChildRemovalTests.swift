import CoordinatorLens
import Testing

/// Children and roots keep the order the old array removal gave them, now that a remove leaves a stale entry behind.
@Suite struct ChildRemovalTests {
    /// The tree's attach and detach rules on plain arrays, as `SessionTree` applied them with `lastIndex(of:)`.
    struct Model {
        var children: [Int: [Int]] = [:]
        var parent: [Int: Int] = [:]
        var roots: [Int] = []
        /// The parent a removed coordinator left, until it is added again: paths, and so cycles, go through it.
        var former: [Int: Int] = [:]

        mutating func detach(_ id: Int) {
            if let above = parent[id] {
                children[above]!.remove(at: children[above]!.lastIndex(of: id)!)
                parent[id] = nil
            } else if let position = roots.lastIndex(of: id) {
                roots.remove(at: position)
            }
        }

        mutating func attach(_ id: Int, to above: Int?) {
            if let above {
                parent[id] = above
                children[above, default: []].append(id)
            } else {
                roots.append(id)
            }
        }
    }

    @Test func randomAddsMovesAndRemovesMatchTheArrayModel() {
        var random = SplitMix(seed: 7)
        var script = Script()
        var model = Model()
        let ids = 1...60
        var known: Set<Int> = []
        for step in 0..<6_000 {
            let id = Int(random.next() % 60) + 1
            let above = random.next() % 4 == 0 ? nil : Int(random.next() % 60) + 1
            if random.next() % 3 == 0, known.contains(id), model.parent[id] != nil {
                script.at(Double(step), .remove(id: CoordinatorID(id), parent: nil))
                model.former[id] = model.parent[id]
                model.detach(id)
                model.attach(id, to: nil)
            } else if let above, known.contains(above), !isAncestor(id, of: above, in: model), above != id {
                script.at(Double(step), .add(id: CoordinatorID(id), type: "T\(id % 3)", parent: CoordinatorID(above)))
                if known.contains(id) { model.detach(id) }
                model.former[id] = nil
                model.attach(id, to: above)
                known.insert(id)
            } else if above == nil || !known.contains(above!) {
                guard !known.contains(id) else { continue }
                script.at(Double(step), .add(id: CoordinatorID(id), type: "T\(id % 3)", parent: nil))
                model.attach(id, to: nil)
                known.insert(id)
            }
            if step % 500 == 0 || step == 5_999 {
                let tree = script.tree()
                #expect(tree.roots.map(\.number) == model.roots, "step \(step)")
                for id in ids where known.contains(id) {
                    #expect(tree[CoordinatorID(id)]?.children.map(\.number) == model.children[id, default: []], "children of \(id) at step \(step)")
                }
                #expect(tree.all.map { $0.children.map(\.number) } == tree.all.map { model.children[$0.id.number, default: []] })
            }
        }
        #expect(script.tree().diagnostics.isEmpty)
    }

    /// Moves that would close a cycle, through a parent or a parent a coordinator left, are refused exactly when the
    /// model's walk up finds one, whichever of the tree's two walks finds it first.
    @Test func randomMovesRefuseExactlyTheCyclesTheModelFinds() {
        var random = SplitMix(seed: 11)
        var script = Script()
        var model = Model()
        var known: Set<Int> = []
        var refusals = 0
        // Under the 1,000 warnings a tree keeps, so each refusal is counted.
        for step in 0..<6_000 {
            let id = Int(random.next() % 40) + 1
            let above = Int(random.next() % 40) + 1
            if random.next() % 4 == 0, known.contains(id), model.parent[id] != nil {
                script.at(Double(step), .remove(id: CoordinatorID(id), parent: nil))
                model.former[id] = model.parent[id]
                model.detach(id)
                model.attach(id, to: nil)
            } else if known.contains(above), above != id {
                script.at(Double(step), .add(id: CoordinatorID(id), type: "T", parent: CoordinatorID(above)))
                if known.contains(id), isAncestor(id, of: above, in: model) {
                    refusals += 1
                    continue
                }
                if known.contains(id) { model.detach(id) }
                model.former[id] = nil
                model.attach(id, to: above)
                known.insert(id)
            } else if !known.contains(id) {
                script.at(Double(step), .add(id: CoordinatorID(id), type: "T", parent: nil))
                model.attach(id, to: nil)
                known.insert(id)
            }
        }
        let tree = script.tree()
        #expect(refusals > 100 && refusals < 1_000, "\(refusals)")
        #expect(tree.diagnostics.filter { $0.message.contains("would make a parent cycle") }.count == refusals)
        #expect(tree.roots.map(\.number) == model.roots)
        #expect(tree.all.map { $0.children.map(\.number) } == tree.all.map { model.children[$0.id.number, default: []] })
    }

    @Test func removingEveryChildOfAWideParentLeavesItEmptyAndTheRestInOrder() {
        var script = Script()
        script.at(0, .add(id: 1, type: "App", parent: nil))
        for id in 2...5_001 { script.at(1, .add(id: CoordinatorID(id), type: "Child", parent: 1)) }
        for id in 2...5_001 where id % 7 != 0 { script.at(2, .remove(id: CoordinatorID(id), parent: 1)) }
        let tree = script.tree()
        #expect(tree[1]?.children.map(\.number) == Array(stride(from: 7, through: 5_001, by: 7)))
        #expect(tree.roots.count == 1 + 5_000 - 714)
        #expect(tree.roots.first == 1)
        #expect(tree.diagnostics.isEmpty)
    }

    private func isAncestor(_ candidate: Int, of id: Int, in model: Model) -> Bool {
        var current: Int? = id
        while let at = current {
            if at == candidate { return true }
            current = model.parent[at] ?? model.former[at]
        }
        return false
    }
}

/// A small seeded generator, so a failing run can be repeated.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
