import CoordinatorLens
import CoordinatorLensRendering
import TestSupport
import Testing

/// Names that used to lose the whole picture: empty or unprintable ones (an empty `<B></B>` is a DOT syntax error) and
/// huge ones (libgvc takes about a minute on a 10 MB label).
@Suite struct NamelessAndLongLabelTests {
    @Test(arguments: ["", "\u{1B}", "\n\t", " "])
    func anAppOrTypeWithNothingPrintableIsDrawnUnnamed(name: String) throws {
        let snapshot = Fixtures.replay(app: name, [(0, .add(id: 1, type: name, parent: nil))], at: 1)
        let svg = try SVGElement.parse(SnapshotRenderer.render(snapshot, format: .svg))
        #expect(svg.element(id: "c1")?.allText.contains("(unnamed)") == true)
        #expect(svg.texts.first == "(unnamed)", "the title names the app")
    }

    @Test func aDiffOfUnnamedAppsAndTypesRenders() throws {
        let a = Fixtures.replay(app: "", [(0, .add(id: 1, type: "", parent: nil))], at: 1)
        let b = Fixtures.replay(app: "\u{7}", run: "run-2", [(0, .add(id: 5, type: "", parent: nil))], at: 1)
        let svg = try SVGElement.parse(DiffRenderer.render(TreeDiff(a, b), format: .svg))
        #expect(svg.allText.contains("(unnamed)"))
    }

    @Test func labelsAreCutAt200CharactersAndTheSnapshotKeepsTheWholeName() throws {
        let long = String(repeating: "LongCoordinator", count: 100_000)
        let snapshot = Fixtures.replay([(0, .add(id: 1, type: long, parent: nil)), (0, .bind(id: 1, screen: long))], at: 1)
        let dot = DOTWriter().write(snapshot)
        #expect(dot.utf8.count < 10_000)
        let cut = String(long.prefix(DOTEscaping.maximumLabelCharacters)) + "…"
        #expect(dot.contains("<B>\(cut)</B>"))
        let svg = try SVGElement.parse(SnapshotRenderer.render(snapshot, format: .svg))
        #expect(svg.element(id: "c1")?.allText.contains(cut) == true)
        #expect(snapshot.nodes[0].type == long)
        #expect(DOTEscaping.htmlLabelText(String(repeating: "é", count: 200)) == String(repeating: "é", count: 200))
        #expect(DOTEscaping.htmlLabelText(String(repeating: "<", count: 201)) == String(repeating: "&lt;", count: 200) + "…")
    }
}
