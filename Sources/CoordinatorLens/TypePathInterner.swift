/// Numbers each distinct types-only path from the root, shared by both runs, so fingerprints compare as integers.
struct TypePathInterner {
    private struct Step: Hashable {
        var parent: Int
        var type: String
    }

    private var numbers: [Step: Int] = [:]
    private var steps: [Step] = []

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
                number = steps.count
                numbers[step] = number
                steps.append(step)
            }
            memo[node] = number
        }
        return number
    }

    /// The types a number stands for, root first.
    func types(of number: Int) -> [String] {
        var types: [String] = []
        var current = number
        while current >= 0 {
            types.append(steps[current].type)
            current = steps[current].parent
        }
        return types.reversed()
    }
}
