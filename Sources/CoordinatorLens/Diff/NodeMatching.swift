/// Which node of A is which node of B: the same type and ordinal under matched parents (or both roots).
struct NodeMatching {
    /// For each node of A, its match's position in B, or -1.
    var aToB: [Int]
    /// For each node of B, its match's position in A, or -1.
    var bToA: [Int]
    var matched = 0
    private let sideA: TypePathIndex

    init(_ sideA: TypePathIndex, _ sideB: TypePathIndex) {
        struct SiblingKey: Hashable {
            var home: Int
            var type: Int
            var ordinal: Int
        }
        self.sideA = sideA
        let countA = sideA.snapshot.nodes.count
        let countB = sideB.snapshot.nodes.count
        var byKey: [SiblingKey: Int] = [:]
        byKey.reserveCapacity(countB)
        for position in 0..<countB {
            byKey[SiblingKey(home: sideB.home[position], type: sideB.typeNumber[position], ordinal: sideB.ordinal[position])] = position
        }
        // A's type numbers in B's numbering; -1 for types B never has.
        var typeNumberB: [String: Int] = [:]
        for (number, name) in sideB.typeNames.enumerated() { typeNumberB[name] = number }
        let typeInB = sideA.typeNames.map { typeNumberB[$0] ?? -1 }
        aToB = [Int](repeating: -1, count: countA)
        bToA = [Int](repeating: -1, count: countB)
        // Top-down, so a node's parent is matched (or known not to be) before the node is looked up.
        var stack = Array(sideA.roots.reversed())
        while let position = stack.popLast() {
            let homeA = sideA.home[position]
            let homeB = homeA < 0 ? -1 : aToB[homeA]
            let type = typeInB[sideA.typeNumber[position]]
            guard homeA < 0 || homeB >= 0, type >= 0,
                let partner = byKey[SiblingKey(home: homeB, type: type, ordinal: sideA.ordinal[position])]
            else { continue }
            aToB[position] = partner
            bToA[partner] = position
            matched += 1
            stack.append(contentsOf: sideA.children(of: position).reversed())
        }
    }

    /// One parent's children from both sides in display order: B's order, with each child only A has placed right
    /// after the A sibling it followed, so a removed coordinator shows where it used to be.
    func interleave(_ childrenA: ArraySlice<Int>, _ childrenB: ArraySlice<Int>, into out: inout [(a: Int, b: Int)]) {
        out.removeAll(keepingCapacity: true)
        var next = childrenA.startIndex
        for positionB in childrenB {
            let positionA = bToA[positionB]
            guard positionA >= 0 else {
                out.append((-1, positionB))
                continue
            }
            let at = childrenA.startIndex + sideA.siblingIndex[positionA]
            while next < at {
                if aToB[childrenA[next]] < 0 { out.append((childrenA[next], -1)) }
                next += 1
            }
            next = Swift.max(next, at + 1)
            out.append((positionA, positionB))
        }
        while next < childrenA.endIndex {
            if aToB[childrenA[next]] < 0 { out.append((childrenA[next], -1)) }
            next += 1
        }
    }
}
