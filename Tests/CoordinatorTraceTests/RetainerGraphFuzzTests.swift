#if RetainerSearch
// The search's own tests: a build without the RetainerSearch trait has no search to test.
import Testing

@testable import CoordinatorTrace

#if canImport(OpenCombine)
import OpenCombine
#endif

/// Thousands of random object graphs, each holding its nodes every way the search must tell apart (arrays, closures
/// with one or many captures, dictionaries of closures, enum payloads, captured vars, weak and unowned references and
/// weak captures, and the zoo's shapes: existentials holding objects, structs, boxed structs and closures, arrays of
/// existentials, multi-payload and indirect enums, results, dictionaries keyed by object identifiers and strings, sets
/// of structs, closures made in generic functions, Combine subscriptions): the outcome matches the graph's own strong
/// edges, and every reported path follows them.
@Suite struct RetainerGraphFuzzTests {
    protocol Flow {}

    final class Node: Flow, @unchecked Sendable {
        let index: Int
        var strong: [Node] = []
        weak var weakRef: Node?
        unowned var unownedRef: Node?
        var closures: [() -> Int] = []
        var completions: [String: () -> Int] = [:]
        var slot: Slot = .empty
        var boxed: (() -> Int)?
        var handlers: [Int: () -> Int] = [:]
        var anything: Any?
        var flows: [any Flow] = []
        var route: Route = .none
        var chain: Chain = .end
        var result: Result<Node, any Error>?
        var byID: [ObjectIdentifier: () -> Int] = [:]
        var userInfo: [String: Any] = [:]
        var boxes: Set<NodeBox> = []
        var generic: (() -> Void)?
        #if canImport(OpenCombine)
        var cancellables = Set<AnyCancellable>()
        #endif
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

    /// Fits an existential's inline buffer.
    struct NodeRef: Flow {
        var node: Node
        var tag: Int
    }

    /// Does not: the existential boxes it on the heap.
    struct LargeNodeRef: Flow {
        var first = 1
        var second = 2
        var third = 3
        var node: Node
    }

    struct NodeFailure: Error {
        var node: Node
    }

    /// Several payload types: the node is in the second or third case.
    enum Route {
        case none
        case first(Int)
        case second(Node, Int)
        case third(NodeRef)
    }

    enum Chain {
        case end
        indirect case link(Node, next: Chain)

        init(_ nodes: [Node]) {
            self = nodes.reversed().reduce(Chain.end) { next, node in .link(node, next: next) }
        }
    }

    /// Equal by key only: a set keeps one box per key.
    struct NodeBox: Hashable {
        var key: Int
        var node: Node
        static func == (left: Self, right: Self) -> Bool { left.key == right.key }
        func hash(into hasher: inout Hasher) { hasher.combine(key) }
    }

    /// A closure made in a generic function: its context holds the parameter's metadata and the value.
    static func capturing<Value>(_ value: Value) -> () -> Void {
        { _ = value }
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

        /// A field assigned anew: the edges it held are gone.
        mutating func clear(_ from: Int, _ labels: String...) {
            for label in labels { edges[from]?[label] = nil }
        }

        mutating func clear(_ from: Int, prefix: String) {
            edges[from] = edges[from]?.filter { !$0.key.hasPrefix(prefix) }
        }

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
        /// the target. A Combine subscription is one edge (`cancellables`) whose middle steps are OpenCombine's own
        /// objects: from a node's `cancellables[i]` the steps until the next node's are taken as that edge.
        func follows(_ steps: [RetainerPath.Step], from starts: [Int]) -> Bool {
            var current = Set(starts)
            // Inside a subscription: the nodes it may lead to.
            var inside: Set<Int>?
            for step in steps {
                guard step.holder == "Node" else {
                    if inside == nil { return false }
                    continue
                }
                if let ahead = inside {
                    current = ahead
                    inside = nil
                }
                let label = step.field.hasPrefix("cancellables[") ? "cancellables" : step.field
                var next = Set<Int>()
                for at in current { next.formUnion(edges[at]?[label] ?? []) }
                guard !next.isEmpty else { return false }
                if label == "cancellables" { inside = next } else { current = next }
            }
            return (inside ?? current).contains(target)
        }
    }

    static func makeGraph(seed: UInt64) -> Graph {
        var random = Random(state: seed)
        let count = 3 + random.next(14)
        var graph = Graph(target: count - 1)
        graph.nodes = (0..<count).map(Node.init)
        var chains: [Int: [Int]] = [:]
        for from in 0..<count {
            let node = graph.nodes[from]
            for _ in 0..<random.next(3) {
                let to = random.next(count)
                let other = graph.nodes[to]
                switch random.next(20) {
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
                case 9:
                    // An existential holding the node, a struct holding it (inline or boxed), or a closure capturing it.
                    graph.clear(from, "anything", "anything.node")
                    let tag = random.next(10)
                    switch random.next(4) {
                    case 0:
                        graph.edge(from, "anything", to)
                        node.anything = other
                    case 1:
                        graph.edge(from, "anything.node", to)
                        node.anything = NodeRef(node: other, tag: tag)
                    case 2:
                        graph.edge(from, "anything.node", to)
                        node.anything = LargeNodeRef(node: other)
                    default:
                        graph.edge(from, "anything", to)
                        let closure: () -> Int = { other.index + tag }
                        node.anything = closure
                    }
                case 10:
                    if random.next(2) == 0 {
                        graph.edge(from, "flows[\(node.flows.count)]", to)
                        node.flows.append(other)
                    } else {
                        graph.edge(from, "flows[\(node.flows.count)].node", to)
                        node.flows.append(NodeRef(node: other, tag: 1))
                    }
                case 11:
                    graph.clear(from, prefix: "route.")
                    if random.next(2) == 0 {
                        graph.edge(from, "route.second", to)
                        node.route = .second(other, 2)
                    } else {
                        graph.edge(from, "route.third.node", to)
                        node.route = .third(NodeRef(node: other, tag: 3))
                    }
                case 12:
                    // A linked list: the k-th link's node is `chain.link` and k times `.next.link`.
                    chains[from, default: []].append(to)
                    let members = chains[from] ?? []
                    node.chain = Chain(members.map { graph.nodes[$0] })
                    graph.clear(from, prefix: "chain.")
                    for (depth, member) in members.enumerated() {
                        graph.edge(from, "chain.link" + String(repeating: ".next.link", count: depth), member)
                    }
                case 13:
                    graph.clear(from, prefix: "result.")
                    if random.next(2) == 0 {
                        graph.edge(from, "result.success", to)
                        node.result = .success(other)
                    } else {
                        graph.edge(from, "result.failure.node", to)
                        node.result = .failure(NodeFailure(node: other))
                    }
                case 14:
                    // Keyed by the node itself: a later closure for it replaces the earlier one, to the same node.
                    let tag = random.next(100)
                    graph.edge(from, "byID[ObjectIdentifier]", to)
                    node.byID[ObjectIdentifier(other)] = { other.index + tag }
                case 15:
                    let key = "k\(random.next(3))"
                    graph.clear(from, "userInfo[\"\(key)\"]", "userInfo[\"\(key)\"].node")
                    if random.next(2) == 0 {
                        graph.edge(from, "userInfo[\"\(key)\"]", to)
                        node.userInfo[key] = other
                    } else {
                        graph.edge(from, "userInfo[\"\(key)\"].node", to)
                        node.userInfo[key] = NodeRef(node: other, tag: 4)
                    }
                case 16:
                    // The set's storage order is known only when the graph is built: its edges are added then.
                    node.boxes.update(with: NodeBox(key: random.next(4), node: other))
                case 17:
                    graph.clear(from, "generic", "generic.node")
                    if random.next(2) == 0 {
                        graph.edge(from, "generic", to)
                        node.generic = capturing(other)
                    } else {
                        graph.edge(from, "generic.node", to)
                        node.generic = capturing(NodeRef(node: other, tag: 5))
                    }
                #if canImport(OpenCombine)
                case 18:
                    let subject = PassthroughSubject<Int, Never>()
                    let tag = random.next(100)
                    graph.edge(from, "cancellables", to)
                    subject
                        .sink { value in _ = other.index + tag + value }
                        .store(in: &node.cancellables)
                #endif
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
        for (from, node) in graph.nodes.enumerated() {
            for (position, box) in node.boxes.enumerated() { graph.edge(from, "boxes[\(position)].node", box.node.index) }
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
            // The graph's own shapes: the test process's globals are no part of it.
            let search = RetainerSearch(
                ids: ids, options: RetainerSearchOptions(maximumObjects: 1_000, timeBudget: 5, sendsKeyText: true), startsFromGlobals: false)
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
            case .unreachable, .budget, .changed, .notSearched:
                #expect(found.steps.isEmpty)
            }
            withExtendedLifetime(graph.nodes) {}
        }
        #expect(outcomes.count == 3, "every outcome occurs: \(outcomes)")
    }
}
#endif
