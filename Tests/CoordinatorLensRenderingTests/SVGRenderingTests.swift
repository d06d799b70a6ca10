import CoordinatorLens
import CoordinatorLensRendering
import TestSupport
import Testing

/// What libgvc really draws from the DOT, read back from the SVG.
@Suite struct SVGRenderingTests {
    let svg: SVGElement

    init() throws {
        svg = try SVGElement.parse(SnapshotRenderer.render(Fixtures.shop(), format: .svg))
    }

    @Test func retainedNodeIsDrawnRed() throws {
        let node = try #require(svg.element(id: "c3"))
        #expect(node.name == "g")
        #expect(node.classes == ["node", "verdict-retained"])
        #expect(node.shapeFill == "#cf222e")
        #expect(node.texts.contains("CheckoutCoordinator"))
    }

    @Test func aliveNodeIsNotRed() throws {
        let node = try #require(svg.element(id: "c1"))
        #expect(node.classes == ["node", "verdict-alive"])
        let fill = try #require(node.shapeFill)
        #expect(fill != "#cf222e")
        #expect(fill == "#ffffff")
    }

    @Test func holderEdgeIsBoldRed() throws {
        let edge = try #require(svg.element(id: "e2-3"))
        #expect(edge.classes == ["edge", "holds-retained"])
        let line = try #require(edge.descendants.first { $0.name == "path" })
        #expect(line.attributes["stroke"] == "#e5484d")
        #expect(line.attributes["stroke-width"] == "3")
    }

    @Test func hiddenNodesAreNotInTheSVG() {
        #expect(svg.element(id: "c4") == nil)
        #expect(svg.element(id: "c8") == nil)
        #expect(svg.element(id: "c6")?.classes.contains("shown-as-ancestor") == true)
    }

    @Test func titleAndLegendAreDrawn() {
        let texts = svg.texts
        #expect(texts.contains("Shop"))
        #expect(texts.contains("Legend"))
        #expect(svg.element(id: "legend") != nil)
    }

    @Test func pngAndPDFAreRealFiles() throws {
        let png = try SnapshotRenderer.render(Fixtures.shop(), format: .png)
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
        #expect(png.count > 5_000)
        let pdf = try SnapshotRenderer.render(Fixtures.shop(), format: .pdf)
        #expect(pdf.starts(with: Array("%PDF".utf8)))
        #expect(pdf.count > 5_000)
    }
}
