import CoordinatorLens

/// Writes a snapshot as DOT: the coordinator tree top-down, coloured by verdict, under a title and beside a legend.
///
/// Only fixed tokens reach ids and attributes (`c<id>`, `verdict-<verdict>`); user text goes through `DOTEscaping`
/// into HTML-like labels and tooltips only. The same snapshot and options always give the same text: nodes follow the
/// roots and each node's children in order.
package struct DOTWriter: Sendable {
    /// What the drawing shows.
    package var options: RenderOptions

    /// Above this many coordinators' boxes a drawing gets `NodeDetail.compact` boxes: more than a default picture
    /// ever draws, so only `--all` and Show all do.
    var compactAbove = DrawingBounds.standard.maximumItems

    /// A writer that draws what `options` asks for.
    package init(options: RenderOptions = RenderOptions()) {
        self.options = options
    }

    /// A node's DOT name and SVG id: `c<id>`, never user text (a name shows in the SVG's `<title>` and comments, and is
    /// what `\N` expands to). Negative ids, which the hook never sends, become `cn<magnitude>`, as a DOT name cannot
    /// hold a minus sign; a string id becomes `cs<its UTF-8 bytes in hex>`, stable and unique for each spelling.
    package static func name(_ id: CoordinatorID) -> String {
        guard let number = id.integer else { return "cs" + hex(id.description) }
        return number < 0 ? "cn\(number.magnitude)" : "c\(number)"
    }

    /// The id a node name (`name(_:)`) stands for; nil for any other text.
    package static func id(named name: String) -> CoordinatorID? {
        if name.hasPrefix("cs") {
            let digits = Array(name.utf8.dropFirst(2))
            guard !digits.isEmpty, digits.count.isMultiple(of: 2) else { return nil }
            var bytes: [UInt8] = []
            for pair in stride(from: 0, to: digits.count, by: 2) {
                guard let byte = UInt8(String(decoding: digits[pair..<pair + 2], as: UTF8.self), radix: 16) else { return nil }
                bytes.append(byte)
            }
            guard let text = String(validating: bytes, as: UTF8.self) else { return nil }
            // Looked up, not interned: the name comes from a request, and an id no session uses names nothing.
            return CoordinatorID(existingText: text)
        }
        let negative = name.hasPrefix("cn")
        guard name.hasPrefix("c"), let magnitude = Int(name.dropFirst(negative ? 2 : 1)), magnitude >= 0,
            String(magnitude) == name.dropFirst(negative ? 2 : 1)
        else { return nil }
        return CoordinatorID(negative ? -magnitude : magnitude)
    }

    /// The id's part of an edge's SVG id: the integer, or `s<hex>` for a string id, so no user text reaches an id.
    static func edgeToken(_ id: CoordinatorID) -> String {
        id.integer.map { "\($0)" } ?? "s" + hex(id.description)
    }

    private static func hex(_ text: String) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count * 2)
        for byte in text.utf8 {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The DOT text for `snapshot`.
    package func write(_ snapshot: Snapshot) -> String {
        document(for: snapshot).text
    }

    /// The DOT text for `snapshot` and the layout Graphviz should give it: `dot` for trees up to
    /// `options.largeTreeThreshold` drawn nodes, positions computed here (`TreeLayout`) above that. Above
    /// `options.collapseThreshold` drawn coordinators, subtrees without a retained or pending one are summarised; unless
    /// every coordinator is asked for (`--all`), the drawing stays within `DrawingBounds.standard` whatever the shape.
    package func document(for snapshot: Snapshot) -> (text: String, layout: GraphvizRenderer.Layout) {
        let placements = Self.forest(of: snapshot)
        let shown = shownNodes(placements)
        let drawn = placements.filter { shown.contains($0.node.id) }
        return document(for: snapshot, drawn: drawn, shown: shown, forest: Self.collapse(drawn, options: options, in: snapshot))
    }

    /// `document(for:)` for libgvc: refuses, before any DOT is written, a drawing of more nodes than libgvc can take
    /// (`GraphvizRenderer.maximumNodes`), which only `--all` can ask for.
    package func drawableDocument(for snapshot: Snapshot) throws(RenderError) -> (text: String, layout: GraphvizRenderer.Layout) {
        let placements = Self.forest(of: snapshot)
        let shown = shownNodes(placements)
        let drawn = placements.filter { shown.contains($0.node.id) }
        let forest = Self.collapse(drawn, options: options, in: snapshot)
        try GraphvizRenderer.checkLimits(nodes: forest.items.count)
        return document(for: snapshot, drawn: drawn, shown: shown, forest: forest)
    }

    private func document(
        for snapshot: Snapshot, drawn: [Placement], shown: Set<CoordinatorID>, forest: CollapsedForest
    ) -> (text: String, layout: GraphvizRenderer.Layout) {
        let items = forest.items
        let detail = NodeDetail(
            coordinators: items.count(where: { if case .node = $0 { true } else { false } }), compactAbove: compactAbove)
        let looks = Dictionary(uniqueKeysWithValues: Verdict.allCases.map { ($0, NodeLook($0, detail: detail)) })
        // Each compact label once, for its size and its statement.
        let compactLabels = items.map { item -> [String] in
            guard detail == .compact, case .node(let position) = item else { return [] }
            return Self.compactLines(for: drawn[position].node)
        }
        let boxes = items.indices.map { index -> TreeLayout<Int>.Box in
            let size: (width: Double, height: Double) =
                switch items[index] {
                case .node(let position):
                    detail == .compact ? Self.estimatedSize(compactLines: compactLabels[index]) : Self.estimatedSize(of: drawn[position].node, in: snapshot)
                case .summary(let summary): Self.estimatedSize(of: summary, types: drawn[summary.members[0]].node.type)
                case .omission(let omission): OmissionLabel.estimatedSize(omission)
                }
            let above = forest.parentItem[index]
            return .init(id: index, parent: above < 0 ? nil : above, width: size.width, height: size.height)
        }
        let placement = LayoutChoice.placement(for: boxes, largeTreeThreshold: options.largeTreeThreshold, aspect: options.aspect)
        let positions = placement.positions
        let edges = positions == nil ? "" : placement.routesAroundBoxes ? ", splines=true" : ", splines=line"
        // The page leaves a compact picture's text out when zoomed far out; the class tells it which pictures those are.
        let extra = edges + (detail == .compact ? ", class=\"compact\"" : "")
        let title = options.drawsTitleAndLegend ? title(for: snapshot, collapsed: forest) : "\"\""
        var out = DOTPreamble.open("coordinators", title: title, extra: extra)
        let names = items.map { item -> String in
            switch item {
            case .node(let position): Self.name(drawn[position].node.id)
            case .summary(let summary): "g" + Self.name(drawn[summary.members[0]].node.id)
            case .omission(let omission): "o" + Self.name(drawn[omission.anchor].node.id)
            }
        }
        // The coordinators in a subgraph of their own, so its defaults (an alive one's look) reach no legend.
        out += "  subgraph tree {\n" + detail.defaults
        for (index, item) in items.enumerated() {
            let above = forest.parentItem[index]
            switch item {
            case .node(let position):
                let (node, parent, detached) = (drawn[position].node, drawn[position].parent, drawn[position].detached)
                out += nodeStatement(
                    node, in: snapshot, at: positions?[index], size: (boxes[index].width, boxes[index].height), compactLines: compactLabels[index],
                    looks: looks)
                if let parent, above >= 0, case .node = items[above] {
                    out += edgeStatement(from: parent, to: node, detached: detached, attachedOnly: snapshot.isAttachedOnly(node))
                } else if above >= 0 {
                    out += "  \(names[above]) -> \(names[index]) [id=\"e\(names[above])-\(names[index])\", class=\"holds elided\", style=dashed];\n"
                }
            case .summary(let summary):
                let members = summary.members.map { drawn[$0].node }
                out += summaryStatement(summary, members: members, name: names[index], at: positions?[index])
                guard above >= 0 else { break }
                let holdsLeaks = summary.tallies.contains { $0.name == Verdict.retained.rawValue }
                let look = holdsLeaks ? "class=\"holds-retained summary\", color=\"\(NodeLook.leakRed)\", penwidth=3" : "class=\"holds summary\""
                if case .node(let parentPosition) = items[above] {
                    let parent = drawn[parentPosition].node.id
                    out += "  \(names[above]) -> \(names[index]) [id=\"e\(Self.edgeToken(parent))-g\(Self.edgeToken(members[0].id))\", \(look)];\n"
                } else {
                    out += "  \(names[above]) -> \(names[index]) [id=\"e\(names[above])-\(names[index])\", \(look)];\n"
                }
            case .omission(let omission):
                out += OmissionLabel.statement(name: names[index], omission, at: positions?[index])
                if above >= 0 {
                    out += "  \(names[above]) -> \(names[index]) [id=\"e\(names[above])-\(names[index])\", class=\"holds elided\", style=dashed];\n"
                }
            }
        }
        out += "  }\n"
        // Given positions: the legend goes above the roots' row, at the left.
        if options.drawsTitleAndLegend {
            out += legendStatement(for: snapshot, shown: shown, at: positions.map { _ in (x: 180, y: 140) })
        }
        out += "}\n"
        return (out, positions == nil ? .dot : .givenPositions)
    }

    /// What of `drawn` is drawn as itself: everything with `--all`; by default, above the collapse threshold, what
    /// leads to a retained or pending coordinator (with `--depth`, the top levels), and always within the bounds.
    static func collapse(_ drawn: [Placement], options: RenderOptions, in snapshot: Snapshot) -> CollapsedForest {
        var position: [CoordinatorID: Int] = [:]
        position.reserveCapacity(drawn.count)
        for (index, placement) in drawn.enumerated() { position[placement.node.id] = index }
        let parent = drawn.map { $0.parent.flatMap { position[$0.id] } ?? -1 }
        let everything = options.collapseThreshold == .max
        var matters: [Bool]
        if let limit = options.depth {
            // Pre-order: a parent's depth is known before its children's.
            var depth = [Int](repeating: 0, count: drawn.count)
            for index in drawn.indices where parent[index] >= 0 { depth[index] = depth[parent[index]] + 1 }
            matters = depth.map { $0 <= limit }
        } else if everything || drawn.count <= options.collapseThreshold {
            matters = [Bool](repeating: true, count: drawn.count)
        } else {
            matters = drawn.map { $0.node.verdict == .retained || $0.node.verdict == .pending }
        }
        // What the page revealed or opened stays itself: it matters, and a kind of its own keeps a wide row from
        // grouping it again.
        var alone = options.revealed.compactMap { position[$0] }
        for id in options.opened {
            guard let first = position[id] else { continue }
            let (type, verdict) = (drawn[first].node.type, drawn[first].node.verdict)
            alone += drawn.indices.filter { parent[$0] == parent[first] && drawn[$0].node.type == type && drawn[$0].node.verdict == verdict }
        }
        for index in alone { matters[index] = true }
        let ownKind = Set(alone)
        return CollapsedForest(
            parent: parent, matters: matters,
            kind: { ownKind.contains($0) ? "alone \($0)" : "\(drawn[$0].node.verdict.rawValue) \(drawn[$0].node.type)" },
            tally: { drawn[$0].node.verdict.rawValue },
            grouping: options.groupsSiblings,
            bounds: everything ? nil : .standard,
            width: { estimatedSize(of: drawn[$0].node, in: snapshot).width }
        )
    }

    private func summaryStatement(
        _ summary: CollapsedForest.Summary, members: [SnapshotNode], name: String, at position: (x: Double, y: Double)?
    ) -> String {
        let first = members[0]
        let head =
            members.count == 1
            ? "<B>\(DOTEscaping.htmlName(first.type))</B> #\(DOTEscaping.htmlLabelText(first.id.description))"
            : "<B>\(DOTEscaping.htmlName(first.type)) ×\(NumberText.grouped(members.count))</B>"
        return SummaryLabel.statement(
            name: name, head: head, summary,
            tooltip: ([
                members.count == 1 ? "\(first.type)#\(first.id)" : "\(first.type) ×\(members.count): #\(first.id) … #\(members.last!.id)",
                "\(NumberText.grouped(summary.total)) coordinator\(summary.total == 1 ? "" : "s"): \(SummaryLabel.tallies(summary))",
                summary.between > 0 ? "\(NumberText.grouped(summary.between)) other siblings between the first and the last" : nil,
                options.depth.map { "drawn as one node below --depth \($0)" }
                    ?? "drawn as one node to keep the picture readable; --all (or Show all) draws every one",
            ] as [String?]).compactMap { $0 }, at: position, type: first.type)
    }

    static func estimatedSize(of summary: CollapsedForest.Summary, types type: String) -> (width: Double, height: Double) {
        SummaryLabel.estimatedSize(type: type, summary)
    }

    /// A compact box's size in points: its lines in 11 pt type, as `estimatedSize(of:in:)` estimates the full ones.
    static func estimatedSize(compactLines lines: [String]) -> (width: Double, height: Double) {
        let widest = lines.map { Swift.min($0.count, DOTEscaping.maximumLabelCharacters) }.max() ?? 0
        return (Double(widest) * 11 * NodeDetail.emPerCharacter + 2 * NodeDetail.sideMargin * 72, Double(lines.count) * 13.5 + 2 * 0.06 * 72 + 2)
    }

    /// A node's size in points, from its label's longest line: Helvetica averages about 0.6 em a character, and a
    /// generous guess only widens the gaps, where a short one would make labels overlap.
    static func estimatedSize(of node: SnapshotNode, in snapshot: Snapshot) -> (width: Double, height: Double) {
        let cap = DOTEscaping.maximumLabelCharacters
        var lines = [Double(Swift.min(node.type.count, cap)) * 12, Double(("#\(node.id) · ").count + Swift.min((node.screen ?? "").count, cap)) * 10]
        if node.verdict != .alive {
            lines.append(Double(node.verdict.rawValue.count) * 10)
        } else if let kept = node.kept {
            lines.append(Double("kept for reuse by \(kept.parentType)#\(kept.parentID)".count) * 10)
        }
        if let shown = node.shownAgain?.last { lines.append(Double("shown again \(Seconds(snapshot.evaluatedAt - shown.shownAt)) ago".count) * 10) }
        let width = (lines.max() ?? 0) * 0.62 + 2 * NodeDetail.sideMargin * 72
        let height = 15 + Double(lines.count - 1) * 12.5 + 2 * 0.06 * 72
        return (width, height)
    }

    /// A node where the drawing puts it: under the parent whose children list holds it, under the parent a `remove`
    /// detached it from (`detached`), or as a root.
    struct Placement {
        var node: SnapshotNode
        var parent: SnapshotNode?
        var detached = false
    }

    /// Every node once, in pre-order: the roots' trees first, a detached coordinator after its former parent's
    /// children (where its retention reason says it was), then any node no root reaches (possible only in a
    /// hand-edited or inconsistent snapshot) as a root of its own, so no coordinator, and no leak, goes missing.
    static func forest(of snapshot: Snapshot) -> [Placement] {
        var placements: [Placement] = []
        placements.reserveCapacity(snapshot.nodes.count)
        var detachedFrom: [CoordinatorID: [CoordinatorID]] = [:]
        for node in snapshot.nodes where node.parent == nil {
            if let former = node.removedFrom, snapshot.node(former) != nil { detachedFrom[former, default: []].append(node.id) }
        }
        var placed = Set<CoordinatorID>()
        // Iterative, as trees from real apps can be deep enough to exhaust a secondary thread's stack.
        var stack: [Placement] = []
        let roots = snapshot.roots.filter { snapshot.node($0)?.removedFrom == nil }
        for start in roots + snapshot.nodes.map(\.id) {
            guard !placed.contains(start), let root = snapshot.node(start) else { continue }
            stack.append(Placement(node: root, parent: nil))
            while let placement = stack.popLast() {
                guard placed.insert(placement.node.id).inserted else { continue }
                placements.append(placement)
                for child in (detachedFrom[placement.node.id] ?? []).reversed() where !placed.contains(child) {
                    if let childNode = snapshot.node(child) {
                        stack.append(Placement(node: childNode, parent: placement.node, detached: true))
                    }
                }
                for child in placement.node.children.reversed() where !placed.contains(child) {
                    if let childNode = snapshot.node(child) {
                        stack.append(Placement(node: childNode, parent: placement.node))
                    }
                }
            }
        }
        return placements
    }

    /// The nodes to draw. Released and late ones are hidden unless `showReleased`, except when something below them
    /// is still not deinited: then they stay, greyed, so a coordinator that outlived its parent is drawn under the
    /// parent its retention reason names, rather than as a root whose reason points at a node nowhere on screen.
    func shownNodes(_ placements: [Placement]) -> Set<CoordinatorID> {
        if let focus = options.focus { return Self.focused(on: focus, placements) }
        if options.leaksOnly { return Self.leaksAndTheirPaths(placements) }
        if options.showReleased { return Set(placements.map(\.node.id)) }
        var shown = Set<CoordinatorID>()
        // Reverse pre-order meets every node after all of its descendants.
        for placement in placements.reversed()
        where !placement.node.verdict.isGone || shown.contains(placement.node.id) || options.revealed.contains(placement.node.id) {
            shown.insert(placement.node.id)
            if let parent = placement.parent { shown.insert(parent.id) }
        }
        return shown
    }

    /// The coordinators whose id (as spelled in the recording) or type is `focus`, everything below them and the path
    /// from the root to each.
    private static func focused(on focus: String, _ placements: [Placement]) -> Set<CoordinatorID> {
        kept(placements) { $0.type == focus || $0.id.description == focus }
    }

    /// Retained coordinators, everything below them and the path from the root to each: what leads to no leak is
    /// left out.
    private static func leaksAndTheirPaths(_ placements: [Placement]) -> Set<CoordinatorID> {
        kept(placements) { $0.verdict == .retained }
    }

    /// The nodes `wanted` picks, their subtrees and their paths from the root. Linear: a walk up stops at the first
    /// node already kept.
    private static func kept(_ placements: [Placement], _ wanted: (SnapshotNode) -> Bool) -> Set<CoordinatorID> {
        var parentOf: [CoordinatorID: CoordinatorID] = [:]
        var inLeak = Set<CoordinatorID>()
        // Pre-order meets every parent before its children, so a subtree under a leak is known as it is met.
        for placement in placements {
            let id = placement.node.id
            parentOf[id] = placement.parent?.id
            if wanted(placement.node) || placement.parent.map({ inLeak.contains($0.id) }) == true {
                inLeak.insert(id)
            }
        }
        var shown = inLeak
        for id in inLeak {
            var above = parentOf[id]
            while let parent = above, shown.insert(parent).inserted { above = parentOf[parent] }
        }
        return shown
    }

    /// A coordinator's statement, stating only what differs from an alive one's look (the subgraph's defaults); a
    /// compact box has its `compactLines`, a full one none.
    private func nodeStatement(
        _ node: SnapshotNode, in snapshot: Snapshot, at position: (x: Double, y: Double)?, size: (width: Double, height: Double),
        compactLines: [String], looks: [Verdict: NodeLook]
    ) -> String {
        let name = Self.name(node.id)
        var out = "  \(name) [id=\"\(name)\""
        if node.verdict != .alive {
            out += ", class=\"verdict-\(node.verdict.rawValue)\(node.verdict.isGone && !options.showReleased ? " shown-as-ancestor" : "")\", "
            out += looks[node.verdict]!.attributes(differingFrom: looks[.alive])
        } else if node.kept != nil {
            // Kept for reuse: alive, but done; drawn dashed so it reads apart from both the ones in use and the leaks.
            out += ", class=\"kept\", style=\"filled,dashed\""
        }
        if node.watched == true {
            // A watched object is not a coordinator: a note-shaped box beside its coordinator, in its verdict's colours.
            out += ", shape=note"
        }
        out += DOTPreamble.pos(position, size: size)
        out += ", label=" + (compactLines.isEmpty ? label(for: node, in: snapshot) : DOTEscaping.quotedLabel(lines: compactLines))
        if options.nodeTooltips {
            out += ", tooltip=" + DOTEscaping.tooltip(NodeTooltip.lines(for: node, in: snapshot, paths: options.sourcePaths))
        }
        return out + "];\n"
    }

    /// A compact box's lines, plain text: the type (or `(unnamed)`) and id, and the verdict for any but an alive
    /// coordinator (its reason is the tooltip's and the details', as on a full box). One line where the full box has three: Chromium lays out each <text> of a picture, and at
    /// 1,000 coordinators drawn whole one line a box took 28 % less time to show than two.
    static func compactLines(for node: SnapshotNode) -> [String] {
        let type = DOTEscaping.printable(node.type)
        var lines = [
            (type.unicodeScalars.allSatisfy({ $0.properties.isWhitespace }) ? "(unnamed)" : type) + " #\(node.id)"
                + (node.watched == true ? " · watched" : "")
        ]
        if node.verdict != .alive { lines.append(node.verdict.rawValue) }
        if node.kept != nil { lines.append("kept for reuse") }
        return lines
    }

    /// A retained child's edge from a parent still alive is the bold red "who holds it"; an edge to or from a
    /// deinited node is grey and dashed, as that link no longer holds anything; so is the edge to a coordinator
    /// detached from its parent, red when something else keeps it. A retained child the retainer search found its
    /// parent does not hold (`attachedOnly`) hangs there by a thin dotted red edge: attached, not held.
    private func edgeStatement(from parent: SnapshotNode, to child: SnapshotNode, detached: Bool, attachedOnly: Bool) -> String {
        let attributes =
            switch EdgeKind(from: parent, to: child, detached: detached, attachedOnly: attachedOnly) {
            case .detached: "class=\"detached\", color=\"\(child.verdict == .retained ? NodeLook.leakRed : NodeLook.goneGrey)\", style=dashed"
            case .attached: "class=\"attached-retained\", color=\"\(NodeLook.leakRed)\", style=dotted"
            // Beside its coordinator rather than held by it: the coordinator may not hold it at all.
            case .watched:
                "class=\"watched\", color=\"\(child.verdict == .retained ? NodeLook.leakRed : NodeLook.goneGrey)\", style=dotted, arrowhead=odot"
            case .holdsRetained: "class=\"holds-retained\", color=\"\(NodeLook.leakRed)\", penwidth=3"
            case .gone: "class=\"gone\", color=\"\(NodeLook.goneGrey)\", style=dashed"
            case .held: ""
            }
        let (from, to) = (Self.name(parent.id), Self.name(child.id))
        let id = "e\(Self.edgeToken(parent.id))-\(Self.edgeToken(child.id))"
        return "  \(from) -> \(to) [id=\"\(id)\"\(attributes.isEmpty ? "" : ", " + attributes)];\n"
    }

    /// The verdict stands alone: its reason, a sentence with a call site, made a retained box as wide as the rest of
    /// its row, and a fitted picture of 13 coordinators showed titles 3 px high; the age line made every box a fifth
    /// taller, which a phone's tall picture pays once a row. The tooltip, the details and `check` say both.
    private func label(for node: SnapshotNode, in snapshot: Snapshot) -> String {
        var lines = ["<B>\(DOTEscaping.htmlName(node.type))</B>"]
        var identity = "#\(DOTEscaping.htmlLabelText(node.id.description))"
        if node.watched == true { identity += " · watched" }
        if let screen = node.screen {
            identity += " · \(DOTEscaping.htmlLabelText(screen))"
        }
        lines.append(DOTPreamble.small(identity))
        if node.verdict != .alive {
            lines.append(DOTPreamble.small("<B>\(node.verdict.rawValue)</B>"))
        } else if let kept = node.kept {
            lines.append(DOTPreamble.small("<B>kept for reuse</B>&#160;by \(DOTEscaping.htmlName(kept.parentType))#\(kept.parentID)"))
        }
        if let shown = node.shownAgain?.last {
            lines.append(DOTPreamble.small("shown again \(Seconds(snapshot.evaluatedAt - shown.shownAt)) ago"))
        }
        return "<" + lines.joined(separator: "<BR/>") + ">"
    }

    private func title(for snapshot: Snapshot, collapsed: CollapsedForest? = nil) -> String {
        var first = "<B>\(DOTEscaping.htmlName(snapshot.app))</B> · run \(DOTEscaping.htmlLabelText(snapshot.run))"
        if let pid = snapshot.pid { first += " · pid \(pid)" }
        var second = "evaluated \(Seconds(snapshot.evaluatedAt)) into the run · grace \(Seconds(snapshot.grace))"
        second += " · \(snapshot.counts[.retained, default: 0]) retained"
        if !snapshot.warnings.isEmpty {
            let count = snapshot.warnings.count
            second += " · \(count) warning\(count == 1 ? "" : "s"): the tree may be incomplete"
        }
        var banner = ""
        if let collapsed, collapsed.summaries > 0 {
            let summaries = "\(NumberText.grouped(collapsed.summaries)) summar\(collapsed.summaries == 1 ? "y" : "ies")"
            banner =
                "<BR/>"
                + DOTPreamble.small(
                    options.depth.map { depth in
                        "below depth \(depth): \(NumberText.grouped(collapsed.summarised)) coordinators drawn as \(summaries) "
                            + "(grey; a red outline holds leaks)"
                    } ?? "big tree: \(NumberText.grouped(collapsed.summarised)) coordinators drawn as "
                        + "\(summaries) (grey; a red outline holds leaks); --all draws every one")
        }
        if let collapsed, collapsed.elided > 0 || collapsed.capped > 0 {
            var parts: [String] = []
            if collapsed.elided > 0 {
                parts.append(
                    "\(NumberText.grouped(collapsed.elided)) coordinators in the middle of long paths drawn as "
                        + "\(NumberText.grouped(collapsed.elisions)) “… more …” node\(collapsed.elisions == 1 ? "" : "s")")
            }
            if collapsed.elidedLeaks > 0 { parts[parts.count - 1] += " (\(NumberText.grouped(collapsed.elidedLeaks)) retained among them)" }
            if collapsed.capped > 0 {
                let bounds = DrawingBounds.standard
                parts.append(
                    "capped at \(NumberText.grouped(bounds.maximumItems)) nodes (\(NumberText.grouped(bounds.maximumLeadItems)) for leaks and their paths): "
                        + "\(NumberText.grouped(collapsed.capped)) coordinators not drawn, only counted"
                        + (collapsed.cappedLeaks > 0 ? ", \(NumberText.grouped(collapsed.cappedLeaks)) retained among them (in red boxes)" : ""))
            }
            banner += "<BR/>" + DOTPreamble.small(parts.joined(separator: "; ") + "; --all draws every one")
        }
        return "<\(first)<BR/>\(DOTPreamble.small(second))\(banner)>"
    }

    private func legendStatement(for snapshot: Snapshot, shown: Set<CoordinatorID>, at position: (x: Double, y: Double)?) -> String {
        let grace = Seconds(snapshot.grace)
        let counts = snapshot.counts
        var hidden: [Verdict: Int] = [:]
        for node in snapshot.nodes where !shown.contains(node.id) {
            hidden[node.verdict, default: 0] += 1
        }
        var rows = ["<TR><TD COLSPAN=\"3\" ALIGN=\"LEFT\"><B>Legend</B></TD></TR>"]
        for verdict in Verdict.allCases {
            let look = NodeLook(verdict)
            let meaning =
                switch verdict {
                case .alive: "in use"
                case .pending: "done; its deinit is still within the \(grace) grace"
                case .retained: "done over \(grace) ago and never deinited: a leak"
                case .released: "deinited in time"
                case .late: "deinited, but over \(grace) after it was done"
                }
            let total = counts[verdict, default: 0]
            var count = "\(total)"
            if let hiddenCount = hidden[verdict] { count += hiddenCount == total ? ", none drawn" : ", \(total - hiddenCount) drawn" }
            rows.append(
                "<TR><TD BORDER=\"1\" COLOR=\"\(look.outline)\" BGCOLOR=\"\(look.fill)\" WIDTH=\"18\" HEIGHT=\"12\" "
                    + "FIXEDSIZE=\"TRUE\"></TD><TD ALIGN=\"LEFT\"><B>\(verdict.rawValue)</B>: \(meaning)</TD>"
                    + "<TD ALIGN=\"RIGHT\">\(count)</TD></TR>"
            )
        }
        rows.append(
            "<TR><TD><FONT COLOR=\"\(NodeLook.leakRed)\"><B>━━</B></FONT></TD>"
                + "<TD COLSPAN=\"2\" ALIGN=\"LEFT\">red edge: the live parent still holding a retained one</TD></TR>"
        )
        // Only where the picture has one, so pictures of designs whose parents own their children stay as they were.
        // Through the few the search looked at, not every node.
        if snapshot.heldBy.keys.contains(where: { id in shown.contains(id) && snapshot.node(id).map(snapshot.isAttachedOnly) == true }) {
            rows.append(
                "<TR><TD><FONT COLOR=\"\(NodeLook.leakRed)\">┈┈</FONT></TD>"
                    + "<TD COLSPAN=\"2\" ALIGN=\"LEFT\">dotted edge: attached under a live parent that does not hold it "
                    + "(its reason and held by name what does)</TD></TR>"
            )
        }
        // Only where the picture has one; the plain scan first, as most pictures have none.
        if snapshot.nodes.contains(where: { $0.watched == true }), shown.contains(where: { snapshot.node($0)?.watched == true }) {
            rows.append(
                "<TR><TD><FONT COLOR=\"\(NodeLook.goneGrey)\">┈○</FONT></TD>"
                    + "<TD COLSPAN=\"2\" ALIGN=\"LEFT\">note box on a dotted edge: an object watched with its coordinator "
                    + "(Tracer.watch), judged like one once that one is done</TD></TR>"
            )
        }
        rows.append(
            "<TR><TD><FONT COLOR=\"\(NodeLook.leakRed)\">╍╍</FONT></TD>"
                + "<TD COLSPAN=\"2\" ALIGN=\"LEFT\">dashed edge: removed from this parent (red: still alive), or a link to a deinited one</TD></TR>"
        )
        if !options.showReleased {
            rows.append(
                "<TR><TD></TD><TD COLSPAN=\"2\" ALIGN=\"LEFT\">"
                    + "released and late ones are drawn only when a live one hangs below them (--show-released draws all)</TD></TR>"
            )
        }
        let table =
            "<TABLE BORDER=\"0\" CELLBORDER=\"0\" CELLSPACING=\"2\" CELLPADDING=\"2\">"
            + rows.joined() + "</TABLE>"
        return "  legend [id=\"legend\", class=\"legend\", shape=none, margin=0, fontsize=10\(DOTPreamble.pos(position)), label=<\(table)>];\n"
    }

}
