import CoordinatorLens
import CoordinatorLensRendering
import TestSupport
import Testing

/// Every drawn coordinator carries a tooltip (verdict, reason, call sites, times) under its stable id `c<id>`, as
/// libgvc writes it: `<g id="c3"><g id="a_c3"><a xlink:title="…">`.
@Suite struct TooltipTests {
    private static func tooltip(_ svg: SVGElement, id: CoordinatorID) -> String? {
        svg.element(id: DOTWriter.name(id))?.descendants.first { $0.name == "a" }?.attributes["xlink:title"]
    }

    @Test func everyDrawnNodeHasATooltipUnderItsId() throws {
        let snapshot = Fixtures.shop()
        let svg = try SVGElement.parse(SnapshotRenderer.render(snapshot, format: .svg, options: RenderOptions(showReleased: true)))
        let nodes = svg.elements(withClass: "node").filter { $0.attributes["id"]?.hasPrefix("c") == true }
        #expect(nodes.count == snapshot.nodes.count)
        for node in snapshot.nodes {
            let tooltip = Self.tooltip(svg, id: node.id)
            #expect(tooltip?.hasPrefix("\(node.type)#\(node.id)") == true, "c\(node.id): \(tooltip ?? "no tooltip")")
        }
        #expect(
            Self.tooltip(svg, id: 3) == """
                CheckoutCoordinator#3 · CheckoutScreen
                retained: still a child of TabCoordinator#2
                added 0.2 s · done 1 s into the run (judged at 10 s)
                """)
        #expect(Self.tooltip(svg, id: 8)?.contains("late: deinited 4 s after it was done") == true)
        #expect(Self.tooltip(svg, id: 8)?.contains("deinited 9.5 s") == true)
    }

    @Test func tooltipsNameCallSitesRelativeToTheSourceRoot() throws {
        var tree = SessionTree(header: SessionHeader(app: "Shop", run: "r"))
        let add = CallSite(file: "Shop/Home.swift", line: 12, function: "openCheckout()", path: "/src/shop/Sources/Shop/Home.swift")
        let bind = CallSite(file: "Shop/Base.swift", line: 30, function: "show(_:)", path: "/src/shop/Sources/Shop/Base.swift")
        tree.apply(EventRecord(seq: 1, time: 0, event: .add(id: 1, type: "Home", parent: nil)))
        tree.apply(EventRecord(seq: 2, time: 0.5, event: .add(id: 2, type: "Checkout", parent: 1), site: add))
        tree.apply(EventRecord(seq: 3, time: 0.6, event: .bind(id: 2, screen: "CheckoutScreen"), site: bind))
        let options = RenderOptions(sourcePaths: SourcePaths(root: "/src/shop"))
        let svg = try SVGElement.parse(SnapshotRenderer.render(tree.snapshot(), format: .svg, options: options))
        let tooltip = try #require(Self.tooltip(svg, id: 2))
        #expect(tooltip.contains("\nadded at Sources/Shop/Home.swift:12 in openCheckout()\n"))
        #expect(tooltip.contains("\nbound at Sources/Shop/Base.swift:30 in show(_:)\n"))
    }

    @Test func aHostileTypeNameStaysInsideItsTooltip() throws {
        let hostile = "Evil\nLine%0A::error \"quoted\" \\N \\\\G \\\" <b>&amp;\u{1B}[31mRed\\"
        let snapshot = Fixtures.replay([(0, .add(id: 1, type: hostile, parent: nil)), (1, .dismiss(id: 1))], at: 5)
        let svg = try SVGElement.parse(SnapshotRenderer.render(snapshot, format: .svg))
        let tooltip = try #require(Self.tooltip(svg, id: 1))
        // Control characters are dropped (the newline too, so no line of the tooltip is forged); the rest is verbatim.
        #expect(tooltip.hasPrefix("EvilLine%0A::error \"quoted\" \\N \\\\G \\\" <b>&amp;[31mRed\\#1\n"), "\(tooltip)")
        #expect(tooltip.split(separator: "\n").count == 3)
    }
}
