import CoordinatorLens
import Foundation
import TestSupport
import Testing

@testable import CoordinatorLensRendering

/// Trees laid out by CoordinatorLens are drawn through a libgvc context with only Graphviz's core plugins (no
/// Pango): the same picture as through the default context, with every label inside its box.
@Suite(.serialized) struct CorePluginTests {
    /// The DOT of a 4-ary tree of `size` drawn whole with CoordinatorLens's own layout, as the page draws it.
    static func document(size: Int) -> String {
        var options = RenderOptions(largeTreeThreshold: 0)
        options.collapseThreshold = .max
        let document = DOTWriter(options: options).document(for: CollapseTests.tree(size: size, leaks: [37, 402, 977]))
        #expect(document.layout == .givenPositions)
        return document.text
    }

    /// Every element's id with its classes, fill, stroke and tooltip, in document order.
    static func identity(_ svg: [UInt8]) throws -> [String] {
        try SVGElement.parse(svg).descendants.compactMap { element in
            guard let id = element.attributes["id"] else { return nil }
            let shape = element.shape
            let title = element.descendants.first { $0.attributes["xlink:title"] != nil }?.attributes["xlink:title"] ?? ""
            return [id, element.attributes["class"] ?? "", shape?.attributes["fill"] ?? "", shape?.attributes["stroke"] ?? "", title]
                .joined(separator: " | ")
        }
    }

    @Test func theCorePathDrawsTheSameNodesIdsColoursAndTooltipsAsTheDefaultOne() throws {
        let dot = Self.document(size: 2_000)
        let core = try GraphvizRenderer.shared.render(dot: dot, format: .svg, layout: .givenPositions, plugins: .automatic)
        let machine = try GraphvizRenderer.shared.render(dot: dot, format: .svg, layout: .givenPositions, plugins: .machine)
        #expect(GraphvizRenderer.shared.drawsWithCorePlugins, "the core plugins loaded from libgvc's own directory")
        #expect(core != machine, "two different paths: text is measured differently")
        let coreIdentity = try Self.identity(core)
        let machineIdentity = try Self.identity(machine)
        #expect(coreIdentity.count > 4_000, "nodes and edges: \(coreIdentity.count)")
        #expect(coreIdentity == machineIdentity)
    }

    /// Each node's box, left and right edge in points, from the first path or polygon after its group opens.
    static func boxes(_ svg: [UInt8]) -> [String: (left: Double, right: Double)] {
        var boxes: [String: (left: Double, right: Double)] = [:]
        var open: String?
        for line in String(decoding: svg, as: UTF8.self).split(separator: "\n") {
            if line.hasPrefix("<g id=\""), line.contains("class=\"node") {
                open = String(line.dropFirst(7).prefix { $0 != "\"" })
            } else if let id = open, line.hasPrefix("<path") || line.hasPrefix("<polygon") {
                let attribute = line.hasPrefix("<path") ? " d=\"" : " points=\""
                guard let start = line.range(of: attribute) else { continue }
                let value = line[start.upperBound...].prefix { $0 != "\"" }
                var xs: [Double] = []
                var number = ""
                var isX = true
                func flush() {
                    if let value = Double(number) {
                        if isX { xs.append(value) }
                        isX.toggle()
                    }
                    number = ""
                }
                for character in value {
                    if character.isNumber || character == "." || character == "-" && number.isEmpty { number.append(character) } else { flush() }
                }
                flush()
                if let left = xs.min(), let right = xs.max() { boxes[id] = (left, right) }
                open = nil
            }
        }
        return boxes
    }

    @Test(.timeLimit(.minutes(5)))
    func labelsFitTheirBoxesAtTwentyThousandNodes() throws {
        let dot = Self.document(size: 20_000)
        let core = Self.boxes(try GraphvizRenderer.shared.render(dot: dot, format: .svg, layout: .givenPositions, plugins: .automatic))
        // Pango sizes each box to its text, measured in the fonts this machine has, plus the margin (0.15 in a side).
        let measured = Self.boxes(try GraphvizRenderer.shared.render(dot: dot, format: .svg, layout: .givenPositions, plugins: .machine))
        #expect(core.count == 20_001, "every node and the legend: \(core.count)")
        var overflowing: [String] = []
        for (id, box) in measured where id != "legend" {
            let text = box.right - box.left - 2 * 0.15 * 72
            guard let drawn = core[id] else {
                overflowing.append("\(id) missing")
                continue
            }
            if drawn.right - drawn.left < text + 2 { overflowing.append("\(id): box \(drawn.right - drawn.left) pt, text \(text) pt") }
        }
        #expect(overflowing.count == 0, "\(overflowing.count) labels overflow, e.g. \(overflowing.prefix(3))")
    }
}
