import CoordinatorLens
import CoordinatorLensRendering
import Foundation
import Testing

/// The layout the page paints on a canvas shows what the SVG picture shows: the same boxes by the same element names,
/// each edge with the look the DOT gives it, and room for every box inside its width and height.
@Suite struct LayoutJSONTests {
    private func layout(_ options: RenderOptions = RenderOptions(showReleased: true)) throws -> [String: Any] {
        let bytes = try LayoutJSON.encode(Fixtures.shop(), options: options)
        return try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
    }

    /// JSONSerialization's numbers are NSNumbers, whole or not.
    private func number(_ value: Any?) -> Double {
        (value as? NSNumber)?.doubleValue ?? .nan
    }

    @Test func everyCoordinatorIsABoxNamedAsInTheSVGInsideTheDrawing() throws {
        let drawing = try layout()
        let nodes = try #require(drawing["nodes"] as? [[Any]])
        let width = number(drawing["width"])
        let height = number(drawing["height"])
        #expect(Set(nodes.compactMap { $0[0] as? String }) == Set((1...8).map { "c\($0)" }))
        for node in nodes {
            let (x, y, w, h) = (number(node[1]), number(node[2]), number(node[3]), number(node[4]))
            #expect(x - w / 2 >= 0 && x + w / 2 <= width && y - h / 2 >= 0 && y + h / 2 <= height, "\(node)")
        }
        let checkout = try #require(nodes.first { $0[0] as? String == "c3" })
        #expect(checkout[5] as? String == "retained")
        #expect((checkout[6] as? [String])?.first == "CheckoutCoordinator #3")
    }

    @Test func edgesNameTheirEndsAndTheirLook() throws {
        let drawing = try layout()
        let nodes = try #require(drawing["nodes"] as? [[Any]]).map { $0[0] as! String }
        let edges = try #require(drawing["edges"] as? [[Any]]).map { (nodes[Int(number($0[0]))], nodes[Int(number($0[1]))], $0[2] as! String) }
        #expect(edges.contains { $0 == ("c2", "c3", "holds-retained") })
        #expect(edges.contains { $0 == ("c1", "c2", "held") })
        // Onboarding#6 deinited with Welcome#7 still attached: the link holds nothing any more.
        #expect(edges.contains { $0 == ("c6", "c7", "gone") })
    }
}
