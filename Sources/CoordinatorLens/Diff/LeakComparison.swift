/// A's leaks against B's, fingerprint by fingerprint: which of B's are new, which of A's are fixed, which persist.
struct LeakComparison {
    enum State: UInt8 {
        case none, still, new, fixed
    }

    /// For each node of A: `.still` or `.fixed` when it is retained, else `.none`.
    private(set) var stateA: [State]
    /// For each node of B: `.still` or `.new` when it is retained, else `.none`.
    private(set) var stateB: [State]
    private(set) var newLeaks: [LeakCount] = []
    private(set) var fixedLeaks: [LeakCount] = []
    private(set) var stillLeaking: [LeakCount] = []

    init(_ sideA: TypePathIndex, _ sideB: TypePathIndex, _ matching: NodeMatching) {
        let nodesA = sideA.snapshot.nodes
        let nodesB = sideB.snapshot.nodes
        stateA = [State](repeating: .none, count: nodesA.count)
        stateB = [State](repeating: .none, count: nodesB.count)

        struct Key: Hashable {
            var types: Int
            var reasonKind: RetentionKind
        }
        var typePaths = TypePathInterner()
        var memoA = [Int](repeating: -1, count: nodesA.count)
        var memoB = [Int](repeating: -1, count: nodesB.count)
        var groupByKey: [Key: Int] = [:]
        var keys: [Key] = []
        var retainedA: [[Int]] = []
        var retainedB: [[Int]] = []
        func group(_ key: Key) -> Int {
            if let known = groupByKey[key] { return known }
            groupByKey[key] = keys.count
            keys.append(key)
            retainedA.append([])
            retainedB.append([])
            return keys.count - 1
        }
        for position in nodesA.indices where nodesA[position].verdict == .retained {
            let types = typePaths.id(of: position, in: sideA, memo: &memoA)
            retainedA[group(Key(types: types, reasonKind: nodesA[position].leakReasonKind))].append(position)
        }
        var groupOfB = [Int](repeating: -1, count: nodesB.count)
        for position in nodesB.indices where nodesB[position].verdict == .retained {
            let types = typePaths.id(of: position, in: sideB, memo: &memoB)
            let number = group(Key(types: types, reasonKind: nodesB[position].leakReasonKind))
            retainedB[number].append(position)
            groupOfB[position] = number
        }

        for number in keys.indices {
            // The same coordinator leaking in both runs is the same leak; the rest pair up in the order they were added.
            for positionA in retainedA[number] {
                let positionB = matching.aToB[positionA]
                if positionB >= 0, groupOfB[positionB] == number {
                    stateA[positionA] = .still
                    stateB[positionB] = .still
                }
            }
            let restA = retainedA[number].filter { stateA[$0] == .none }
            let restB = retainedB[number].filter { stateB[$0] == .none }
            for (positionA, positionB) in zip(restA, restB) {
                stateA[positionA] = .still
                stateB[positionB] = .still
            }
            for positionB in restB.dropFirst(restA.count) { stateB[positionB] = .new }
            for positionA in restA.dropFirst(restB.count) { stateA[positionA] = .fixed }

            let (types, omitted) = typePaths.types(of: keys[number].types)
            let fingerprint = LeakFingerprint(types: types, omittedSteps: omitted, reasonKind: keys[number].reasonKind)
            let shared = Swift.min(retainedA[number].count, retainedB[number].count)
            if restB.count > restA.count { newLeaks.append(LeakCount(fingerprint: fingerprint, count: restB.count - restA.count)) }
            if restA.count > restB.count { fixedLeaks.append(LeakCount(fingerprint: fingerprint, count: restA.count - restB.count)) }
            if shared > 0 { stillLeaking.append(LeakCount(fingerprint: fingerprint, count: shared)) }
        }
        newLeaks.sort { $0.fingerprint < $1.fingerprint }
        fixedLeaks.sort { $0.fingerprint < $1.fingerprint }
        stillLeaking.sort { $0.fingerprint < $1.fingerprint }
    }
}
