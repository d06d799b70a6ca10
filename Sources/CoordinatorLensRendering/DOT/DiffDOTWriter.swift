import CoordinatorLens

/// Writes a diff's merged tree as DOT: every coordinator of either run once, drawn by its marker, under a title with
/// both inputs, the summary line and a legend.
///
/// Only fixed tokens reach ids and attributes (`n<entry>`, `diff-<marker>`); user text goes through `DOTEscaping` into
/// HTML-like labels and tooltips only. The same diff always gives the same text.
package struct DiffDOTWriter: Sendable {
    /// Names for the two inputs in the title, such as their file paths.
    package var sourceA: String
    /// Names input B in the title, for example its file path.
    package var sourceB: String
    /// Above this many entries, unchanged subtrees are drawn as one summary node each (`Int.max`: never).
    package var collapseThreshold = RenderOptions.defaultCollapseThreshold
    /// Whether adjacent unchanged siblings of one type share one summary node.
    package var groupsSiblings = true
    /// Above this many drawn nodes the diff is laid out by CoordinatorLens (`TreeLayout`), not by Graphviz's `dot`,
    /// which takes minutes at 20,000.
    package var largeTreeThreshold = 2_000

    /// A writer that names the inputs `sourceA` and `sourceB` in the title.
    package init(sourceA: String = "A", sourceB: String = "B") {
        self.sourceA = sourceA
        self.sourceB = sourceB
    }

    /// The DOT text for `diff`.
    package func write(_ diff: TreeDiff) -> String {
        document(for: diff).text
    }

    /// The DOT text for `diff` and the layout Graphviz should give it. A big diff draws what changed and the paths
    /// to it, with every unchanged subtree as one summary node, the way a big tree is drawn.
    package func document(for diff: TreeDiff) -> (text: String, layout: GraphvizRenderer.Layout) {
        let entries = diff.entries
        let collapsing = entries.count > collapseThreshold
        // A big diff is bounded like a big tree (long paths elided, a cap), but its rows keep their nodes: each
        // carries its own marker.
        var bounds = DrawingBounds.standard
        bounds.groupsWideRows = false
        let forest = CollapsedForest(
            parent: entries.map { $0.parent ?? -1 },
            matters: collapsing ? entries.map { $0.marker != .unchanged || $0.isStillLeaking } : [Bool](repeating: true, count: entries.count),
            kind: { entries[$0].type }, tally: { _ in "unchanged" }, grouping: groupsSiblings,
            bounds: collapsing ? bounds : nil
        )
        let collapsed: CollapsedForest? = collapsing ? forest : nil
        let items = forest.items
        // Entries are in pre-order, so a summary is named by its first member's entry, as nodes are.
        let names = items.map { item -> String in
            switch item {
            case .node(let index): "n\(index)"
            case .summary(let summary): "g\(summary.members[0])"
            case .omission(let omission): "o\(omission.anchor)"
            }
        }
        let positions = LayoutChoice.positions(
            for: items.indices.map { position -> TreeLayout<Int>.Box in
                let above = forest.parentItem[position] < 0 ? nil : forest.parentItem[position]
                switch items[position] {
                case .node(let index):
                    let size = Self.estimatedSize(of: entries[index])
                    return .init(id: position, parent: above, width: size.width, height: size.height)
                case .summary(let summary):
                    let size = SummaryLabel.estimatedSize(type: entries[summary.members[0]].type, summary)
                    return .init(id: position, parent: above, width: size.width, height: size.height)
                case .omission(let omission):
                    let size = OmissionLabel.estimatedSize(omission)
                    return .init(id: position, parent: above, width: size.width, height: size.height)
                }
            }, largeTreeThreshold: largeTreeThreshold)
        var out = DOTPreamble.open("coordinator_diff", title: title(for: diff, collapsed: collapsed), extra: positions == nil ? "" : ", splines=line")
        let twinned = TreeDiffReport.hasSameTypeSibling(diff)
        for (position, item) in items.enumerated() {
            let above = forest.parentItem[position]
            let byNode: Bool = if above >= 0, case .node = items[above] { true } else { false }
            switch item {
            case .node(let index):
                let entry = entries[index]
                out += nodeStatement(index, entry, twinned: twinned[index], in: diff, at: positions?[position])
                if let parent = entry.parent, byNode {
                    out += edgeStatement(from: parent, to: index, entry)
                }
            case .summary(let summary):
                let first = summary.members[0]
                let type = DOTEscaping.htmlName(entries[first].type)
                let head = summary.members.count == 1 ? "<B>= \(type)</B>" : "<B>= \(type) ×\(NumberText.grouped(summary.members.count))</B>"
                out += SummaryLabel.statement(
                    name: "g\(first)", head: head, summary,
                    tooltip: [
                        "\(entries[first].type)\(summary.members.count == 1 ? "" : " ×\(summary.members.count)")",
                        "\(NumberText.grouped(summary.total)) coordinators unchanged between A and B",
                        "drawn as one node because the diff is big; --all draws every one",
                    ], at: positions?[position], type: entries[first].type)
                if byNode {
                    out += "  n\(summary.parent) -> g\(first) [id=\"e\(summary.parent)-g\(first)\", class=\"holds summary\"];\n"
                }
            case .omission(let omission):
                out += OmissionLabel.statement(name: names[position], omission, at: positions?[position])
            }
            if above >= 0, !byNode {
                out += "  \(names[above]) -> \(names[position]) [id=\"e\(names[above])-\(names[position])\", class=\"holds elided\", style=dashed];\n"
            }
        }
        out += "}\n"
        return (out, positions == nil ? .dot : .givenPositions)
    }

    /// A node's size in points, from its type's length; generous, as `DOTWriter`'s.
    private static func estimatedSize(of entry: TreeDiff.Entry) -> (width: Double, height: Double) {
        let width = Double(Swift.min(entry.type.count, DOTEscaping.maximumLabelCharacters) + 4) * 12 * 0.62 + 22
        return (Swift.max(width, 160), 52)
    }

    private func nodeStatement(
        _ index: Int, _ entry: TreeDiff.Entry, twinned: Bool, in diff: TreeDiff, at position: (x: Double, y: Double)?
    ) -> String {
        let look = NodeLook(entry.marker, stillLeaking: entry.isStillLeaking)
        var classes = "diff-\(entry.marker.rawValue)"
        if entry.isStillLeaking { classes += " still-leaking" }
        return "  n\(index) [id=\"n\(index)\", class=\"\(classes)\", style=\"\(look.style)\", "
            + "fillcolor=\"\(look.fill)\", color=\"\(look.outline)\", fontcolor=\"\(look.text)\", "
            + "penwidth=\(look.penwidth)\(DOTPreamble.pos(position, size: Self.estimatedSize(of: entry))), label=\(label(for: entry, twinned: twinned, in: diff)), "
            + "tooltip=\(DOTEscaping.tooltip(NodeTooltip.lines(for: entry, in: diff)))];\n"
    }

    /// The edge takes the look of the change at its child: a new or gone branch stands out as a whole.
    private func edgeStatement(from parent: Int, to child: Int, _ entry: TreeDiff.Entry) -> String {
        let attributes =
            switch entry.marker {
            case .added: "class=\"added\", color=\"\(NodeLook.addedGreen)\", penwidth=2"
            case .gone: "class=\"gone\", color=\"\(NodeLook.goneGrey)\", style=dashed"
            case .newLeak: "class=\"holds-new-leak\", color=\"\(NodeLook.leakRed)\", penwidth=3"
            case .fixedLeak, .unchanged, .changed: "class=\"holds\""
            }
        return "  n\(parent) -> n\(child) [id=\"e\(parent)-\(child)\", \(attributes)];\n"
    }

    private func label(for entry: TreeDiff.Entry, twinned: Bool, in diff: TreeDiff) -> String {
        var name = DOTEscaping.htmlName(entry.type)
        if twinned { name += "[\(entry.ordinal)]" }
        var lines = ["<B>\(entry.marker.symbol) \(name)</B>"]
        let nodeA = diff.nodeA(entry)
        let nodeB = diff.nodeB(entry)
        var identity = [nodeA.map { "A #\(DOTEscaping.htmlLabelText($0.id.description))" }, nodeB.map { "B #\(DOTEscaping.htmlLabelText($0.id.description))" }]
            .compactMap { $0 }.joined(separator: " · ")
        if let screen = nodeB?.screen ?? nodeA?.screen {
            identity += " · \(DOTEscaping.htmlLabelText(screen))"
        }
        lines.append(DOTPreamble.small(identity))
        let detail = DOTPreamble.small(DOTEscaping.htmlLabelText(TreeDiffReport.detail(entry, in: diff)))
        lines.append(entry.marker == .newLeak ? "<B>\(detail)</B>" : detail)
        return "<" + lines.joined(separator: "<BR/>") + ">"
    }

    /// The title, the two inputs, the summary line and the legend, all in the graph's label: a legend node would sit
    /// on a rank of the tree and stretch its edges.
    private func title(for diff: TreeDiff, collapsed: CollapsedForest?) -> String {
        func side(_ name: String, _ source: String, _ snapshot: Snapshot) -> String {
            "<B>\(name)</B> \(DOTEscaping.htmlLabelText(source)) · \(DOTEscaping.htmlName(snapshot.app)) run "
                + "\(DOTEscaping.htmlLabelText(snapshot.run)) · at \(Seconds(snapshot.evaluatedAt))"
        }
        let lines = [
            "<B>Coordinator diff</B>",
            DOTPreamble.small(side("A", sourceA, diff.a)),
            DOTPreamble.small(side("B", sourceB, diff.b)),
            DOTPreamble.small(DOTEscaping.htmlLabelText(TreeDiffReport.summaryLine(for: diff))),
        ]
        var rows = lines.map { "<TR><TD ALIGN=\"LEFT\" BALIGN=\"LEFT\">\($0)</TD></TR>" }
        if let collapsed, collapsed.elided > 0 || collapsed.capped > 0 {
            rows.append(
                "<TR><TD ALIGN=\"LEFT\">"
                    + DOTPreamble.small(
                        "\(NumberText.grouped(collapsed.elided + collapsed.capped)) coordinators in long paths or past the cap of "
                            + "\(NumberText.grouped(DrawingBounds.standard.maximumItems)) nodes counted, not drawn; --all draws every one"
                    ) + "</TD></TR>")
        }
        if let collapsed, collapsed.summaries > 0 {
            rows.append(
                "<TR><TD ALIGN=\"LEFT\">"
                    + DOTPreamble.small(
                        "big diff: \(NumberText.grouped(collapsed.summarised)) unchanged coordinators drawn as "
                            + "\(NumberText.grouped(collapsed.summaries)) summar\(collapsed.summaries == 1 ? "y" : "ies") (grey); --all draws every one"
                    ) + "</TD></TR>")
        }
        rows.append("<TR><TD ALIGN=\"LEFT\">\(legend(for: diff))</TD></TR>")
        return "<<TABLE BORDER=\"0\" CELLBORDER=\"0\" CELLSPACING=\"0\" CELLPADDING=\"1\">\(rows.joined())</TABLE>>"
    }

    private func legend(for diff: TreeDiff) -> String {
        var counts: [DiffMarker: Int] = [:]
        var still = 0
        for entry in diff.entries {
            counts[entry.marker, default: 0] += 1
            if entry.isStillLeaking { still += 1 }
        }
        let items = [
            item(NodeLook(.added), symbol: "+", meaning: "added, only in B", count: counts[.added, default: 0]),
            item(NodeLook(.gone), symbol: "-", meaning: "gone, only in A", count: counts[.gone, default: 0]),
            item(NodeLook(.newLeak), symbol: "!", meaning: "new leak", count: counts[.newLeak, default: 0]),
            item(NodeLook(.fixedLeak), symbol: "✓", meaning: "leak fixed", count: counts[.fixedLeak, default: 0]),
            item(NodeLook(.changed), symbol: "~", meaning: "verdict or screen changed", count: counts[.changed, default: 0]),
            item(NodeLook(.unchanged), symbol: "=", meaning: "unchanged", count: counts[.unchanged, default: 0]),
            item(NodeLook(.unchanged, stillLeaking: true), symbol: "", meaning: "still leaking in both", count: still),
        ]
        let firstRow = items.prefix(4).joined()
        let secondRow = items.dropFirst(4).joined()
        return "<TABLE ID=\"legend\" BORDER=\"0\" CELLBORDER=\"0\" CELLSPACING=\"3\" CELLPADDING=\"1\">"
            + "<TR>\(firstRow)</TR><TR>\(secondRow)<TD COLSPAN=\"2\"></TD></TR></TABLE>"
    }

    /// A swatch drawn like the nodes it stands for, then its meaning and how many there are.
    private func item(_ look: NodeLook, symbol: String, meaning: String, count: Int) -> String {
        let border = look.penwidth > 1 ? 3 : 1
        let mark = symbol.isEmpty ? "" : "<FONT COLOR=\"\(look.text)\" POINT-SIZE=\"9\"><B>\(symbol)</B></FONT>"
        let dashed = look.style.contains("dashed") ? " STYLE=\"dashed\"" : ""
        return "<TD BORDER=\"\(border)\"\(dashed) COLOR=\"\(look.outline)\" BGCOLOR=\"\(look.fill)\" WIDTH=\"20\" HEIGHT=\"14\" "
            + "FIXEDSIZE=\"TRUE\">\(mark)</TD><TD ALIGN=\"LEFT\">\(DOTPreamble.small("\(meaning): \(count)"))</TD>"
    }

}
