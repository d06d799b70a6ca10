import CoordinatorLens
import TestSupport
import Testing

@testable import CoordinatorLensRendering

/// Pictures of more coordinators than a default one draws (`--all`, Show all) get square boxes with plain labels:
/// the same nodes, ids, classes, colours and tooltips as the full boxes, only less text and no rounded corners.
@Suite struct CompactDetailTests {
    static func everything() -> RenderOptions {
        var options = RenderOptions()
        options.collapseThreshold = .max
        return options
    }

    static func svg(_ snapshot: Snapshot, compactAbove: Int) throws -> SVGElement {
        var writer = DOTWriter(options: everything())
        writer.compactAbove = compactAbove
        let document = writer.document(for: snapshot)
        return try SVGElement.parse(GraphvizRenderer.shared.render(dot: document.text, format: .svg, layout: document.layout))
    }

    @Test func compactBoxesOnlyAboveWhatADefaultPictureDraws() {
        let limit = DrawingBounds.standard.maximumItems
        let atLimit = DOTWriter(options: Self.everything()).write(CollapseTests.tree(size: limit, leaks: [7]))
        let above = DOTWriter(options: Self.everything()).write(CollapseTests.tree(size: limit + 1, leaks: [7]))
        #expect(atLimit.contains("style=\"rounded,filled\"") && atLimit.contains("label=<<B>AppCoordinator</B>"))
        #expect(!above.contains("rounded") && !above.contains("<B>ItemCoordinator</B>"))
        #expect(above.contains("label=\"AppCoordinator #1\""))
        #expect(above.contains("arrowhead=none") && !atLimit.contains("arrowhead"))
        // The page tells compact pictures by the graph's class.
        #expect(above.contains("class=\"compact\"") && !atLimit.contains("class=\"compact\""))
    }

    @Test func compactAndFullBoxesDrawTheSameIdsClassesColoursAndTooltips() throws {
        let tree = CollapseTests.tree(size: 600, leaks: [37, 402])
        let compact = try Self.svg(tree, compactAbove: 0)
        let full = try Self.svg(tree, compactAbove: .max)
        let identity = { (svg: SVGElement) in
            svg.descendants.compactMap { element -> String? in
                // The legend and the whole picture's group (which says it is compact) aside.
                guard let id = element.attributes["id"], id != "legend", id != "graph0" else { return nil }
                let title = element.descendants.first { $0.attributes["xlink:title"] != nil }?.attributes["xlink:title"] ?? ""
                return [id, element.attributes["class"] ?? "", element.shape?.attributes["fill"] ?? "", element.shape?.attributes["stroke"] ?? "", title]
                    .joined(separator: " | ")
            }
        }
        #expect(identity(compact).count > 1_000)
        #expect(identity(compact) == identity(full))
        // Square: a polygon of four corners, where the full box is a path with rounded corners.
        #expect(compact.element(id: "c1")?.shape?.name == "polygon")
        #expect(full.element(id: "c1")?.shape?.name == "path")
        let leak = try #require(compact.element(id: "c402"))
        #expect(leak.texts == ["FeedCoordinator #402", "retained"])
        #expect(try #require(compact.element(id: "c3")).texts == ["ProfileCoordinator #3"])
    }

    @Test(arguments: hostileTexts.indices)
    func hostileTextShowsVerbatimInACompactBox(index: Int) throws {
        let (input, shown) = hostileTexts[index]
        let snapshot = Fixtures.replay(
            [(0, .add(id: 1, type: input, parent: nil)), (0, .bind(id: 1, screen: input)), (0, .add(id: 2, type: "Child", parent: 1)), (1, .dismiss(id: 2))],
            at: 10)
        let svg = try Self.svg(snapshot, compactAbove: 0)
        #expect(svg.element(id: "c1")?.texts == ["\(shown) #1"])
        #expect(svg.element(id: "c2")?.texts.last == "retained")
    }
}
