import CoordinatorLens
import CoordinatorLensRendering
import TestSupport
import Testing

@Suite("The merged tree rendered through libgvc")
struct DiffRenderingTests {
    /// A leaks its checkout and has a legacy coordinator; B fixes the checkout, drops legacy, adds a promo and leaks
    /// a new banner.
    private static func diff() -> TreeDiff {
        var a = ShopFlow.run("before", leaksCheckout: true)
        a.add("LegacyCoordinator", under: 1)
        var b = ShopFlow.run("after", firstID: 80, leaksCheckout: false)
        b.add("PromoCoordinator", under: 80)
        let banner = b.add("Banner<&>\"Coordinator\"", under: 81)
        b.dismiss(banner)
        return TreeDiff(a.snapshot, b.snapshot)
    }

    private static func svg() throws -> SVGElement {
        try SVGElement.parse(DiffRenderer.render(diff(), format: .svg, sourceA: "before.ndjson", sourceB: "after.ndjson"))
    }

    @Test("every node carries a tooltip with what changed and both runs' facts")
    func tooltips() throws {
        let svg = try Self.svg()
        let nodes = svg.elements(withClass: "node")
        #expect(!nodes.isEmpty)
        for node in nodes {
            let tooltip = node.descendants.first { $0.name == "a" }?.attributes["xlink:title"]
            #expect(tooltip?.isEmpty == false, "\(node.attributes["id"] ?? "?") has no tooltip")
        }
        let banner = try #require(svg.elements(withClass: "diff-new-leak").first)
        let tooltip = try #require(banner.descendants.first { $0.name == "a" }?.attributes["xlink:title"])
        #expect(tooltip.hasPrefix("! Banner<&>\"Coordinator\""), "\(tooltip)")
        #expect(tooltip.contains("\nB Banner<&>\"Coordinator\"#"))
        #expect(tooltip.contains("\nB retained: still a child of"))
    }

    @Test("added nodes are green, gone ones grey and dashed")
    func addedAndGone() throws {
        let svg = try Self.svg()
        let added = try #require(svg.elements(withClass: "diff-added").first)
        #expect(added.allText.contains("PromoCoordinator"))
        #expect(added.shape?.attributes["fill"] == "#dafbe1")
        #expect(added.shape?.attributes["stroke"] == "#1a7f37")

        let gone = try #require(svg.elements(withClass: "diff-gone").first)
        #expect(gone.allText.contains("LegacyCoordinator"))
        #expect(gone.shape?.attributes["stroke"] == "#8c959f")
        #expect(gone.shape?.attributes["stroke-dasharray"] != nil)
    }

    @Test("a new leak is red and bold, a fixed one has a green outline")
    func leaks() throws {
        let svg = try Self.svg()
        let newLeak = try #require(svg.elements(withClass: "diff-new-leak").first)
        // User text comes through escaped and intact.
        #expect(newLeak.allText.contains("! Banner<&>\"Coordinator\""))
        #expect(newLeak.shape?.attributes["fill"] == "#cf222e")
        #expect(Double(newLeak.shape?.attributes["stroke-width"] ?? "") ?? 0 >= 3)
        #expect(newLeak.descendants.contains { $0.name == "text" && $0.attributes["font-weight"] == "bold" })

        let fixed = try #require(svg.elements(withClass: "diff-fixed-leak").first)
        #expect(fixed.allText.contains("CheckoutCoordinator"))
        #expect(fixed.allText.contains("retained (still-child) → released"))
        #expect(fixed.shape?.attributes["fill"] == "#ffffff")
        #expect(fixed.shape?.attributes["stroke"] == "#1a7f37")
        #expect(Double(fixed.shape?.attributes["stroke-width"] ?? "") ?? 0 >= 3)
    }

    @Test("every coordinator is drawn once, with a legend and the summary in the title")
    func wholePicture() throws {
        let diff = Self.diff()
        let svg = try Self.svg()
        let nodes = svg.descendants.filter { $0.classes.contains { $0.hasPrefix("diff-") } }
        #expect(nodes.count == diff.entries.count)
        // The title holds both inputs, the summary line and the legend with each marker's count.
        let title = try #require(svg.elements(withClass: "graph").first?.children.filter { $0.name == "text" })
        let titleText = title.map(\.text).joined(separator: " ")
        #expect(titleText.contains("before.ndjson"))
        #expect(titleText.contains("after.ndjson"))
        #expect(titleText.contains(TreeDiffReport.summaryLine(for: diff)))
        for legend in ["added, only in B: 1", "gone, only in A: 1", "new leak: 1", "leak fixed: 1", "unchanged: 4"] {
            #expect(titleText.contains(legend), "\(legend)")
        }
    }

    @Test("PNG and PDF come out of libgvc too")
    func otherFormats() throws {
        let png = try DiffRenderer.render(Self.diff(), format: .png)
        #expect(Array(png.prefix(4)) == [0x89, 0x50, 0x4E, 0x47])
        let pdf = try DiffRenderer.render(Self.diff(), format: .pdf)
        #expect(Array(pdf.prefix(4)) == Array("%PDF".utf8))
    }
}
