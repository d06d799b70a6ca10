/// Numbers each distinct types-only path from the root, shared by both runs, so fingerprints compare as integers.
struct TypePathInterner {
    private struct Step: Hashable {
        var parent: Int
        var type: String
    }

    private var numbers: [Step: Int] = [:]
    private var steps: [Step] = []
    /// For each number, how many steps its path has above its last one.
    private var depth: [Int] = []
    /// For each number, the number of its path's first step.
    private var root: [Int] = []

    /// The number of the node's types-only path; `memo` caches it per node of that side, -1 when not known yet.
    mutating func id(of position: Int, in side: TypePathIndex, memo: inout [Int]) -> Int {
        var chain: [Int] = []
        var current = position
        while current >= 0, memo[current] < 0 {
            chain.append(current)
            current = side.home[current]
        }
        var number = current >= 0 ? memo[current] : -1
        for node in chain.reversed() {
            let step = Step(parent: number, type: side.snapshot.nodes[node].type)
            if let known = numbers[step] {
                number = known
            } else {
                let above = number
                number = steps.count
                numbers[step] = number
                steps.append(step)
                depth.append(above >= 0 ? depth[above] + 1 : 0)
                root.append(above >= 0 ? root[above] : number)
            }
            memo[node] = number
        }
        return number
    }

    /// The types a number stands for, root first; past `DeepPath.maximumSteps` only the root and the last
    /// `DeepPath.keptSteps`, with how many were left out between them, so a deep path costs no more than a short one.
    func types(of number: Int) -> (types: [String], omitted: Int) {
        let count = depth[number] + 1
        let kept = count <= DeepPath.maximumSteps ? count : DeepPath.keptSteps
        var types: [String] = []
        types.reserveCapacity(kept + 1)
        var current = number
        for _ in 0..<kept {
            types.append(steps[current].type)
            current = steps[current].parent
        }
        guard kept < count else { return (types.reversed(), 0) }
        types.append(steps[root[number]].type)
        return (types.reversed(), count - kept - 1)
    }
}
