import CoordinatorLens
import CoordinatorLensRendering
import Foundation
import TestSupport
import Testing

@Suite struct SnapshotRendererTests {
    @Test func jsonIsTheSnapshotAndReadsBack() throws {
        let snapshot = Fixtures.shop()
        let bytes = try SnapshotRenderer.render(snapshot, format: .json)
        #expect(try JSONDecoder().decode(Snapshot.self, from: Data(bytes)) == snapshot)
        let text = String(decoding: bytes, as: UTF8.self)
        // Sorted keys, pretty printed.
        let app = try #require(text.range(of: "\"app\""))
        let warnings = try #require(text.range(of: "\"warnings\""))
        #expect(app.lowerBound < warnings.lowerBound)
        #expect(text.hasPrefix("{\n"))
    }

    @Test func jsonOfANonFiniteTimeIsAnError() {
        let snapshot = Snapshot(
            app: "a", run: "r", pid: nil, evaluatedAt: .nan, grace: 2, lastSeq: nil, ended: false, roots: [],
            nodes: [], marks: [], warnings: []
        )
        #expect(throws: RenderError.self) { try SnapshotRenderer.render(snapshot, format: .json) }
    }

    @Test func dotIsTheWritersTextUnlaidOut() throws {
        let snapshot = Fixtures.shop()
        let options = RenderOptions(showReleased: true)
        let bytes = try SnapshotRenderer.render(snapshot, format: .dot, options: options)
        #expect(String(decoding: bytes, as: UTF8.self) == DOTWriter(options: options).write(snapshot))
    }

    @Test func emptySnapshotStillRenders() throws {
        let snapshot = Fixtures.replay([], at: 0)
        let svg = try SVGElement.parse(SnapshotRenderer.render(snapshot, format: .svg))
        #expect(svg.element(id: "legend") != nil)
    }

    @Test func formatsFollowFileExtensions() {
        #expect(RenderFormat(fileExtension: "svg") == .svg)
        #expect(RenderFormat(fileExtension: ".PNG") == .png)
        #expect(RenderFormat(fileExtension: "gv") == .dot)
        #expect(RenderFormat(fileExtension: "dot") == .dot)
        #expect(RenderFormat(fileExtension: "jpeg") == nil)
        #expect(RenderFormat(path: "out/tree.pdf") == .pdf)
        #expect(RenderFormat(path: "snap.json") == .json)
        #expect(RenderFormat(path: "tree.gv") == .dot)
        #expect(RenderFormat(path: "tree") == nil)
        #expect(RenderFormat(path: ".svg") == nil)
        #expect(RenderFormat(path: "dir.svg/tree") == nil)
    }
}
