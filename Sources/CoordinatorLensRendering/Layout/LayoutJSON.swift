import CoordinatorLens
import CoordinatorWire

/// A tree's drawing as positions and lines, for the page to paint on a canvas: an SVG of 100,000 coordinators is
/// millions of DOM nodes (2.1 GB in Chromium), while this is a few bytes a box and needs no libgvc, because the
/// positions are CoordinatorLens's own (`TreeLayout`) either way.
///
/// `{"width", "height", "nodes": [[name, x, y, width, height, look, [lines]]], "edges": [[from, to, kind]]}`: points,
/// y growing downwards, x and y each box's centre; `name` is the SVG's element id (`c5`, `gc5` for a summary, `oc5`
/// for an omission); `look` a verdict, `summary`, `summary-retained` or `omission`; an edge names its ends by their
/// index in `nodes`, its kind as `EdgeKind` (or `elided`, `summary`, `summary-retained`).
package enum LayoutJSON {
    /// Room around the drawing, in points, as libgvc leaves.
    static let margin = 4.0

    package static func encode(_ snapshot: Snapshot, options: RenderOptions) throws(RenderError) -> [UInt8] {
        let writer = DOTWriter(options: options)
        let placements = DOTWriter.forest(of: snapshot)
        let shown = writer.shownNodes(placements)
        let drawn = placements.filter { shown.contains($0.node.id) }
        let forest = DOTWriter.collapse(drawn, options: options, in: snapshot)
        let items = forest.items
        try GraphvizRenderer.checkLimits(nodes: items.count)
        var names: [String] = []
        var looks: [String] = []
        var lines: [[String]] = []
        names.reserveCapacity(items.count)
        for item in items {
            switch item {
            case .node(let position):
                let node = drawn[position].node
                names.append(DOTWriter.name(node.id))
                looks.append(node.verdict.rawValue)
                lines.append(DOTWriter.compactLines(for: node))
            case .summary(let summary):
                let first = drawn[summary.members[0]].node
                names.append("g" + DOTWriter.name(first.id))
                let holdsLeaks = summary.tallies.contains { $0.name == Verdict.retained.rawValue }
                looks.append(holdsLeaks ? "summary-retained" : "summary")
                let head = summary.members.count == 1 ? "\(first.type) #\(first.id)" : "\(first.type) ×\(NumberText.grouped(summary.members.count))"
                lines.append([head, SummaryLabel.tallies(summary)])
            case .omission(let omission):
                names.append("o" + DOTWriter.name(drawn[omission.anchor].node.id))
                looks.append("omission")
                let text = OmissionLabel.lines(omission)
                lines.append([text.head, text.detail])
            }
        }
        let boxes = items.indices.map { index -> TreeLayout<Int>.Box in
            let size = DOTWriter.estimatedSize(compactLines: lines[index])
            let above = forest.parentItem[index]
            return .init(id: index, parent: above < 0 ? nil : above, width: size.width, height: size.height)
        }
        let positions = LayoutChoice.positions(for: boxes, largeTreeThreshold: 0) ?? [:]
        var (left, top, right, bottom) = (Double.infinity, Double.infinity, -Double.infinity, -Double.infinity)
        for box in boxes {
            guard let centre = positions[box.id] else { continue }
            left = min(left, centre.x - box.width / 2)
            right = max(right, centre.x + box.width / 2)
            top = min(top, -centre.y - box.height / 2)
            bottom = max(bottom, -centre.y + box.height / 2)
        }
        if boxes.isEmpty { (left, top, right, bottom) = (0, 0, 0, 0) }
        var out = "{\"width\":\(rounded(right - left + 2 * margin)),\"height\":\(rounded(bottom - top + 2 * margin)),\"nodes\":["
        out.reserveCapacity(items.count * 80)
        for (index, box) in boxes.enumerated() {
            let centre = positions[box.id] ?? (0, 0)
            if index > 0 { out += "," }
            out += "[\"\(names[index])\",\(rounded(centre.x - left + margin)),\(rounded(-centre.y - top + margin)),"
            out += "\(rounded(box.width)),\(rounded(box.height)),\"\(looks[index])\",["
            out += lines[index].map { String(decoding: JSONString.quoted(Array($0.utf8)), as: UTF8.self) }.joined(separator: ",")
            out += "]]"
        }
        out += "],\"edges\":["
        var first = true
        for (index, item) in items.enumerated() {
            let above = forest.parentItem[index]
            guard above >= 0 else { continue }
            let kind: String
            switch (item, items[above]) {
            case (.node(let position), .node):
                let placement = drawn[position]
                guard let parent = placement.parent else { continue }
                let attachedOnly = snapshot.isAttachedOnly(placement.node)
                kind = EdgeKind(from: parent, to: placement.node, detached: placement.detached, attachedOnly: attachedOnly).rawValue
            case (.summary, _): kind = looks[index]
            default: kind = "elided"
            }
            out += (first ? "" : ",") + "[\(above),\(index),\"\(kind)\"]"
            first = false
        }
        out += "]}"
        return Array(out.utf8)
    }

    /// Tenths of a point: enough for a picture, and a third of the bytes of a full Double.
    private static func rounded(_ value: Double) -> String {
        let tenths = (value * 10).rounded()
        return tenths.truncatingRemainder(dividingBy: 10) == 0 ? String(Int(tenths / 10)) : String(tenths / 10)
    }
}
