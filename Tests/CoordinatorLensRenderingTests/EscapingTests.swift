import CoordinatorLens
import CoordinatorLensRendering
import TestSupport
import Testing

/// Hostile user text, with what Graphviz must show for it: the text itself minus control characters.
let hostileTexts: [(input: String, shown: String)] = [
    ("Quote\"Coordinator", "Quote\"Coordinator"),
    ("Back\\slash\\N\\L\\G\\E\\T\\H\\n\\l\\r\\\\end\\", "Back\\slash\\N\\L\\G\\E\\T\\H\\n\\l\\r\\\\end\\"),
    ("<script>alert(1)</script>", "<script>alert(1)</script>"),
    ("line1\nline2\ttab\u{0}nul\u{7}bell\u{1B}[31m\u{85}\u{FFFE}\u{FFFF}end", "line1line2tabnulbell[31mend"),
    ("&amp; &lt; &#45; &#x41; & ;", "&amp; &lt; &#45; &#x41; & ;"),
    ("{ } | < > [ ] ; = , -> -- // /* */ #", "{ } | < > [ ] ; = , -> -- // /* */ #"),
    ("😀👩‍👩‍👧 日本語コーディネーター", "😀👩‍👩‍👧 日本語コーディネーター"),
    // Bidirectional controls would reorder the rest of the label: dropped, the text around them kept.
    ("עברית العربية \u{202E}RTL\u{202C} mixed", "עברית العربية RTL mixed"),
    ("'single' <B>bold</B> ]]> <!-- x --> </TD></TABLE>", "'single' <B>bold</B> ]]> <!-- x --> </TD></TABLE>"),
]

@Suite struct EscapingTests {
    @Test(arguments: hostileTexts.indices)
    func hostileTextRendersVerbatimThroughLibgvc(index: Int) throws {
        let (input, shown) = hostileTexts[index]
        let snapshot = Fixtures.replay(
            app: input, run: input,
            [
                (0, .add(id: 1, type: input, parent: nil)),
                (0, .bind(id: 1, screen: input)),
                (0, .add(id: 2, type: "Child", parent: 1)),
                (1, .dismiss(id: 2)),
            ], at: 10)
        let svg = try SVGElement.parse(SnapshotRenderer.render(snapshot, format: .svg))
        #expect(!svg.descendants.contains { $0.name.lowercased() == "script" })
        let node = try #require(svg.element(id: "c1"))
        // The type is a bold span of its own, so it is one <text> element, exactly.
        #expect(node.texts.contains(shown))
        #expect(node.texts.contains("#1 · \(shown)"))
        // The retained child's box says its verdict alone; its tooltip's reason names the parent by type.
        let child = try #require(svg.element(id: "c2"))
        #expect(child.texts.last == "retained")
        let tooltip = child.descendants.first { $0.attributes["xlink:title"] != nil }?.attributes["xlink:title"] ?? ""
        #expect(tooltip.contains("retained: still a child of "), "\(tooltip)")
        // App and run, in the title.
        #expect(svg.texts.contains(shown))
        #expect(svg.texts.contains(" · run \(shown) · pid 42"))
    }

    @Test func nodeNameEscapeDoesNotExpand() throws {
        let snapshot = Fixtures.replay([(0, .add(id: 1, type: "\\N", parent: nil))], at: 1)
        let svg = try SVGElement.parse(SnapshotRenderer.render(snapshot, format: .svg))
        let texts = try #require(svg.element(id: "c1")).texts
        #expect(texts.contains("\\N"))
        #expect(!texts.contains("c1"))
    }

    @Test(arguments: hostileTexts.indices)
    func quotedLabelShowsTextVerbatim(index: Int) throws {
        let (input, shown) = hostileTexts[index]
        let dot = "digraph { n [id=\"n\", shape=box, label=\(DOTEscaping.quotedLabel(input))]; }"
        let svg = try SVGElement.parse(GraphvizRenderer.shared.render(dot: dot, format: .svg))
        #expect(svg.element(id: "n")?.texts == [shown])
    }

    @Test func printableDropsOnlyControlsBidirectionalControlsAndNoncharacters() {
        #expect(DOTEscaping.printable("a\nb\r\tc\u{0}\u{7F}\u{9F}\u{FFFE}\u{FFFF}d") == "abcd")
        #expect(DOTEscaping.printable("\u{200D}\u{202E}é😀") == "\u{200D}é😀", "a joiner stays, a bidirectional override goes")
    }

    @Test func htmlLabelTextHasNoMarkupLeft() {
        let escaped = DOTEscaping.htmlLabelText("<a href=\"x\">&\\</a>'")
        #expect(escaped == "&lt;a href=&quot;x&quot;&gt;&amp;\\\\&lt;/a&gt;&#39;")
    }
}
