/// One coordinator as a snapshot shows it: its facts and its verdict at the snapshot's time.
public struct SnapshotNode: Hashable, Sendable, Codable {
    /// The coordinator's id within its session; ids do not carry over between runs.
    public let id: CoordinatorID
    /// Its Swift type name.
    public let type: String
    /// The coordinator it is attached to (possibly deinited); nil for a root.
    public let parent: CoordinatorID?
    /// Attached children, in the order they were attached.
    public let children: [CoordinatorID]
    /// The screen it was last bound to; nil if never bound.
    public let screen: String?
    /// Seconds since the session started, at its first `add`.
    public let addedAt: Double
    /// Where its first `add` was called; nil when the stream gave no call site.
    public let site: CallSite?
    /// Seconds since the session started, when it was first dismissed, removed or orphaned; nil if none happened.
    public let doneAt: Double?
    /// Seconds since the session started, when it was deallocated; nil if it has not been.
    public let deinitAt: Double?
    /// Its verdict at the snapshot's `evaluatedAt`, with the snapshot's `grace`.
    public let verdict: Verdict
    /// The retention reason's sentence for retained coordinators; a short note for pending and late ones.
    public let reason: String?
    /// The retention reason's stable kind (`still-child`, `detached`, `outlived-parent`), for retained ones only.
    public let reasonKind: RetentionKind?
    /// True for an object handed to `Tracer.watch` (a view model, a screen) to die with its `parent` coordinator;
    /// nil for coordinators. (Beside `reasonKind`, in bytes a node has spare, so a million nodes cost nothing more.)
    public internal(set) var watched: Bool? = nil
    /// The parent a `remove` detached it from, while it stays detached: diffs match it there, not among the roots.
    public let removedFrom: CoordinatorID?
    /// Where it was last bound to a screen; nil if never bound or sent without a call site.
    public internal(set) var boundSite: CallSite? = nil
    /// Where it was first dismissed; nil when a screen's deallocation dismissed it or no site was sent.
    public internal(set) var dismissedSite: CallSite? = nil
    /// How it was first dismissed; nil if never dismissed.
    public internal(set) var dismissedVia: DismissalCause? = nil
    /// Seconds since the session started, at its first dismissal; nil if never dismissed.
    public internal(set) var dismissedAt: Double? = nil
    /// Where the `remove` that detached it was called, while it stays detached.
    public internal(set) var removedSite: CallSite? = nil
    /// Each time it was dismissed and then shown again, oldest first; nil if never.
    public internal(set) var shownAgain: [Reappearance]? = nil
    /// Why a done coordinator is judged alive: its type is kept for reuse by design and its parent holds it; nil
    /// for every other coordinator.
    public var kept: KeptForReuse? { keptOutOfLine?.value }
    // Boxed: stored inline it made every node 49 bytes larger (10 MB of a million-event `check`) for the few that
    // have one.
    var keptOutOfLine: OutOfLine<KeptForReuse>? = nil

    // The stored properties, each under its own name; `keptOutOfLine` under `kept`'s.
    enum CodingKeys: String, CodingKey {
        case id, type, parent, children, screen, addedAt, site, doneAt, deinitAt, verdict, reason, reasonKind, watched, removedFrom
        case boundSite, dismissedSite, dismissedVia, dismissedAt, removedSite, shownAgain
        case keptOutOfLine = "kept"
    }
}

/// A session's tree frozen at one evaluation time, with every verdict decided: what renderers and reports read.
public struct Snapshot: Hashable, Sendable, Codable {
    /// The app's name from the session line.
    public let app: String
    /// The run id that tells this session apart from others.
    public let run: String
    /// The app's process id; nil when the session line has none.
    public let pid: Int?
    /// Seconds since the session started, at which every verdict was judged.
    public let evaluatedAt: Double
    /// The grace period in seconds the verdicts allowed between done and deinited.
    public let grace: Double
    /// The highest `seq` applied; nil when no event had been by the snapshot's point.
    public let lastSeq: Int?
    /// Whether the session's `end` event had arrived by the snapshot's point.
    public let ended: Bool
    /// Ids of the coordinators attached to no parent, in the order they became roots.
    public let roots: [CoordinatorID]
    /// Every coordinator ever seen, in the order it was first added.
    public let nodes: [SnapshotNode]
    /// The marks up to the snapshot's point, in stream order.
    public let marks: [Mark]
    /// The session's diagnostics up to the snapshot's point, in the order found.
    public let warnings: [Diagnostic]
    /// Who holds each coordinator the hook's retainer search looked at, by id.
    public internal(set) var heldBy: [CoordinatorID: HeldBy] = [:]
    /// Keeps the spellings of its string ids while it lives, when its tree's ids are held by a scope.
    package var idSpellings = SpellingHold(nil)
    private var position: CoordinatorIndex

    /// Makes a snapshot from already judged nodes.
    package init(
        app: String, run: String, pid: Int?, evaluatedAt: Double, grace: Double, lastSeq: Int?, ended: Bool,
        roots: [CoordinatorID], nodes: [SnapshotNode], marks: [Mark], warnings: [Diagnostic]
    ) {
        self.init(
            app: app, run: run, pid: pid, evaluatedAt: evaluatedAt, grace: grace, lastSeq: lastSeq, ended: ended,
            roots: roots, nodes: nodes, marks: marks, warnings: warnings, positions: Snapshot.index(nodes))
    }

    /// Makes a snapshot whose nodes `positions` already indexes by id.
    init(
        app: String, run: String, pid: Int?, evaluatedAt: Double, grace: Double, lastSeq: Int?, ended: Bool,
        roots: [CoordinatorID], nodes: [SnapshotNode], marks: [Mark], warnings: [Diagnostic], positions: CoordinatorIndex
    ) {
        self.app = app
        self.run = run
        self.pid = pid
        self.evaluatedAt = evaluatedAt
        self.grace = grace
        self.lastSeq = lastSeq
        self.ended = ended
        self.roots = roots
        self.nodes = nodes
        self.marks = marks
        self.warnings = warnings
        self.position = positions
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            app: try container.decode(String.self, forKey: .app),
            run: try container.decode(String.self, forKey: .run),
            pid: try container.decodeIfPresent(Int.self, forKey: .pid),
            evaluatedAt: try container.decode(Double.self, forKey: .evaluatedAt),
            grace: try container.decode(Double.self, forKey: .grace),
            lastSeq: try container.decodeIfPresent(Int.self, forKey: .lastSeq),
            ended: try container.decodeIfPresent(Bool.self, forKey: .ended) ?? false,
            roots: try container.decode([CoordinatorID].self, forKey: .roots),
            nodes: try container.decode([SnapshotNode].self, forKey: .nodes),
            marks: try container.decodeIfPresent([Mark].self, forKey: .marks) ?? [],
            warnings: try container.decodeIfPresent([Diagnostic].self, forKey: .warnings) ?? []
        )
        heldBy = try container.decodeIfPresent([CoordinatorID: HeldBy].self, forKey: .heldBy) ?? [:]
    }

    private static func index(_ nodes: [SnapshotNode]) -> CoordinatorIndex {
        var index = CoordinatorIndex()
        for position in nodes.indices {
            let id = nodes[position].id
            if index[id] == nil { index[id] = position }
        }
        return index
    }

    /// Looks a node up by id.
    public func node(_ id: CoordinatorID) -> SnapshotNode? {
        guard let index = position[id] else { return nil }
        return nodes[index]
    }

    /// The position in `nodes` of the node with this id, for readers that take a few fields without copying the node.
    package func position(of id: CoordinatorID) -> Int? {
        position[id]
    }

    /// How many coordinators have each verdict.
    public var counts: [Verdict: Int] {
        // Tallied by position, reading one field of each node: a reduce over the nodes copied each one (its strings
        // retained and released) into a dictionary, 94 ms at a million coordinators, paid by every page that connected.
        var tally = (alive: 0, pending: 0, retained: 0, released: 0, late: 0)
        for index in nodes.indices {
            switch nodes[index].verdict {
            case .alive: tally.alive += 1
            case .pending: tally.pending += 1
            case .retained: tally.retained += 1
            case .released: tally.released += 1
            case .late: tally.late += 1
            }
        }
        let all: [(Verdict, Int)] = [
            (.alive, tally.alive), (.pending, tally.pending), (.retained, tally.retained), (.released, tally.released), (.late, tally.late),
        ]
        return Dictionary(uniqueKeysWithValues: all.filter { $0.1 > 0 })
    }

    /// The retained coordinators, the leaks.
    public var retained: [SnapshotNode] {
        // By position: `filter` copied every node to test it, 16 ms for 200,000 nodes.
        var retained: [SnapshotNode] = []
        for index in nodes.indices where nodes[index].verdict == .retained { retained.append(nodes[index]) }
        return retained
    }

    /// The chain of nodes from a root down to `id`, following current parents, or the former parent of a detached one.
    public func path(to id: CoordinatorID) -> [SnapshotNode] {
        var chain: [SnapshotNode] = []
        var seen = Set<CoordinatorID>()
        var current: CoordinatorID? = id
        while let at = current, let node = node(at), seen.insert(at).inserted {
            chain.append(node)
            // A detached coordinator is shown under the parent it left, where it was last part of the tree.
            current = node.parent ?? node.removedFrom
        }
        return chain.reversed()
    }

    enum CodingKeys: String, CodingKey {
        case app, run, pid, evaluatedAt, grace, lastSeq, ended, roots, nodes, marks, warnings, heldBy
    }
}

extension SessionTree {
    /// Freezes the tree at `evaluatedAt` (by default the last event's time) and judges every coordinator; `limits` add
    /// to (and, for the same type and scope, override) the ones the app declared.
    package func snapshot(
        at evaluatedAt: Double? = nil, grace: Double = VerdictRules.defaultGrace, limits: [AliveLimit] = []
    ) -> Snapshot {
        let time = evaluatedAt ?? lastTime
        var nodes: [SnapshotNode] = []
        nodes.reserveCapacity(coordinatorCount)
        forEachCoordinator { coordinator in
            let (verdict, retention) = VerdictRules.verdict(for: coordinator, at: time, grace: grace, heldBy: heldBy.isEmpty ? nil : heldBy[coordinator.id]) {
                storedIgnoringChildren($0)
            }
            var reason = retention?.text
            if verdict == .pending, let done = coordinator.doneAt {
                reason = "done \(Seconds(time - done)) ago, within the grace period"
            } else if verdict == .late, let done = coordinator.doneAt, let deinitAt = coordinator.deinitAt {
                reason = "deinited \(Seconds(deinitAt - done)) after it was done (grace \(Seconds(grace)))"
            }
            nodes.append(
                SnapshotNode(
                    id: coordinator.id, type: coordinator.type, parent: coordinator.parent, children: coordinator.children,
                    screen: coordinator.screen, addedAt: coordinator.addedAt, site: coordinator.addedSite,
                    doneAt: coordinator.doneAt, deinitAt: coordinator.deinitAt, verdict: verdict, reason: reason,
                    reasonKind: retention?.kind, watched: coordinator.diesWithParent ? true : nil, removedFrom: coordinator.removedFrom,
                    boundSite: coordinator.boundSite, dismissedSite: coordinator.dismissedSite,
                    dismissedVia: coordinator.dismissedVia, dismissedAt: coordinator.dismissedAt, removedSite: coordinator.removedSite,
                    shownAgain: coordinator.shownAgain.isEmpty ? nil : coordinator.shownAgain
                ))
        }
        let limits = AliveLimit.merged(aliveLimits + limits)
        if !limits.isEmpty {
            OverLimitRule.apply(limits, to: &nodes)
            ReuseRule.apply(limits, to: &nodes, at: time)
        }
        // The nodes are the coordinators in order, so the tree's own index finds them: no second one to build.
        var snapshot = Snapshot(
            app: header.app, run: header.run, pid: header.pid, evaluatedAt: time, grace: grace, lastSeq: lastSeq,
            ended: ended, roots: roots, nodes: nodes, marks: marks, warnings: warnings, positions: positions
        )
        snapshot.heldBy = heldBy
        snapshot.idSpellings = SpellingHold(idScope)
        return snapshot
    }
}

/// A duration printed the way reports print it: `0.25 s`, `3.1 s`, `12 s`.
package struct Seconds: CustomStringConvertible, Sendable {
    /// The duration in seconds.
    package var value: Double

    /// Wraps a duration in seconds.
    package init(_ value: Double) {
        self.value = value
    }

    /// Seconds down to 0.01 s, milliseconds below that, so that short runs and small grace periods do not print
    /// as "0 s".
    package var description: String {
        let magnitude = Swift.abs(value)
        guard magnitude.isFinite else { return "\(value) s" }
        if magnitude >= 10 { return Self.trimmed(value.rounded(), unit: "s") }
        if magnitude >= 1 { return Self.trimmed((value * 10).rounded() / 10, unit: "s") }
        if magnitude >= 0.01 || magnitude == 0 { return Self.trimmed((value * 100).rounded() / 100, unit: "s") }
        let milliseconds = value * 1_000
        let places = Swift.abs(milliseconds) >= 1 ? 10.0 : 100.0
        return Self.trimmed((milliseconds * places).rounded() / places, unit: "ms")
    }

    private static func trimmed(_ rounded: Double, unit: String) -> String {
        if rounded == rounded.rounded(), Swift.abs(rounded) < 1e15 { return "\(Int(rounded)) \(unit)" }
        return "\(rounded) \(unit)"
    }
}
