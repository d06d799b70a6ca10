import Testing

@testable import CoordinatorTrace

/// Thousands of random object graphs, each holding its nodes every way the search must tell apart (arrays, closures
/// with one or many captures, dictionaries of closures, enum payloads, captured vars, weak and unowned references and
/// weak captures): the outcome matches the graph's own strong edges, and every reported path follows them.
@Suite struct RetainerGraphFuzzTests {
    final class Node {
        let index: Int
        var strong: [Node] = []
        weak var weakRef: Node?
        unowned var unownedRef: Node?
        var closures: [() -> Int] = []
        var completions: [String: () -> Int] = [:]
        var slot: Slot = .empty
        var boxed: (() -> Int)?
        var handlers: [Int: () -> Int] = [:]
        /// As a router keeps a completion it was handed: a reabstraction thunk around the closure.
        func keep(_ handler: @escaping () -> Int, as key: Int) { handlers[key] = handler }
        init(_ index: Int) {
            self.index = index
        }
    }

    enum Slot {
        case empty
        case held(Node, Int)
    }

    /// SplitMix64: the same graphs on every run and machine.
    struct Random {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Int((z ^ (z >> 31)) % UInt64(bound))
        }
    }

    /// One graph: nodes, the strong edges it holds by field name, and which nodes are living coordinators.
    struct Graph {
        var nodes: [Node] = []
        var edges: [Int: [String: Set<Int>]] = [:]
        var roots: [Int] = []
        let target: Int

        mutating func edge(_ from: Int, _ label: String, _ to: Int) { edges[from, default: [:]][label, default: []].insert(to) }

        func reaches(_ goal: Int, from starts: [Int]) -> Bool {
            var seen = Set<Int>()
            var queue = starts
            while let at = queue.popLast() {
                for targets in (edges[at] ?? [:]).values {
                    for next in targets {
                        if next == goal { return true }
                        if seen.insert(next).inserted { queue.append(next) }
                    }
                }
            }
            return false
        }

        /// Whether `steps` can be walked along the graph's strong edges from a root (or, for a cycle, the target) to
        /// the target.
        func follows(_ steps: [RetainerPath.Step], from starts: [Int]) -> Bool {
            var current = Set(starts)
            for step in steps {
                var next = Set<Int>()
                for at in current { next.formUnion(edges[at]?[step.field] ?? []) }
                guard !next.isEmpty else { return false }
                current = next
            }
            return current.contains(target)
        }
    }

    static func makeGraph(seed: UInt64) -> Graph {
        var random = Random(state: seed)
        let count = 3 + random.next(14)
        var graph = Graph(target: count - 1)
        graph.nodes = (0..<count).map(Node.init)
        for from in 0..<count {
            let node = graph.nodes[from]
            for _ in 0..<random.next(3) {
                let to = random.next(count)
                let other = graph.nodes[to]
                switch random.next(9) {
                case 0:
                    graph.edge(from, "strong[\(node.strong.count)]", to)
                    node.strong.append(other)
                case 1: node.weakRef = other
                case 2: node.unownedRef = other
                case 3:
                    graph.edge(from, "closures[\(node.closures.count)]", to)
                    node.closures.append({ other.index })
                case 4:
                    let second = graph.nodes[random.next(count)]
                    graph.edge(from, "closures[\(node.closures.count)]", to)
                    graph.edge(from, "closures[\(node.closures.count)]", second.index)
                    node.closures.append({ other.index + second.index })
                case 5:
                    node.closures.append({ [weak other] in other?.index ?? 0 })
                case 6:
                    let key = "k\(random.next(4))"
                    // A later closure under the same key replaces the earlier one, and its edge.
                    graph.edges[from]?["completions[\"\(key)\"]"] = nil
                    let tag = random.next(100)
                    graph.edge(from, "completions[\"\(key)\"]", to)
                    node.completions[key] = { other.index + tag }
                case 7 where random.next(2) == 0:
                    let key = random.next(3)
                    graph.edges[from]?["handlers[\(key)]"] = nil
                    graph.edge(from, "handlers[\(key)]", to)
                    node.keep({ [weak node] in (node?.index ?? 0) + other.index }, as: key)
                case 7:
                    graph.edges[from]?["slot.held"] = nil
                    graph.edge(from, "slot.held", to)
                    node.slot = .held(other, 1)
                default:
                    var captured: Node? = other
                    let tag = random.next(10)
                    graph.edges[from]?["boxed"] = nil
                    graph.edge(from, "boxed", to)
                    node.boxed = {
                        defer { captured = captured ?? nil }
                        return (captured?.index ?? 0) + tag
                    }
                }
            }
        }
        graph.roots = (0..<count - 1).filter { _ in random.next(3) == 0 }
        return graph
    }

    @Test func everyReportedPathFollowsTheGraphsStrongEdges() {
        var outcomes: [RetainerPath.Outcome: Int] = [:]
        for seed in 0..<3_000 as Range<UInt64> {
            let graph = Self.makeGraph(seed: seed)
            var ids: [ObjectIdentifier: Int] = [:]
            for root in graph.roots { ids[ObjectIdentifier(graph.nodes[root])] = root + 1 }
            let search = RetainerSearch(ids: ids, options: RetainerSearchOptions(maximumObjects: 1_000, timeBudget: 5))
            let found = search.path(to: graph.nodes[graph.target], id: graph.target + 1, roots: graph.roots.map { graph.nodes[$0] })
            outcomes[found.outcome, default: 0] += 1
            let expected: RetainerPath.Outcome =
                graph.reaches(graph.target, from: graph.roots) ? .live : graph.reaches(graph.target, from: [graph.target]) ? .cycle : .unreachable
            #expect(found.outcome == expected, "seed \(seed): \(found)")
            switch found.outcome {
            case .live:
                #expect(graph.follows(found.steps, from: found.steps.first.flatMap { $0.holderID.map { [$0 - 1] } } ?? graph.roots), "seed \(seed): \(found)")
            case .cycle:
                #expect(graph.follows(found.steps, from: [graph.target]), "seed \(seed): \(found)")
            case .unreachable, .budget:
                #expect(found.steps.isEmpty)
            }
            withExtendedLifetime(graph.nodes) {}
        }
        #expect(outcomes.count == 3, "every outcome occurs: \(outcomes)")
    }
}
