import CoordinatorLens
import CoordinatorLensRendering
import Foundation
import TestSupport
import Testing

/// Trees above the threshold are laid out by CoordinatorLens and only drawn by Graphviz (`nop2`).
@Suite struct LargeTreeLayoutTests {
    @Test func givenPositionsKeepBoxesApartAndParentsAboveChildren() throws {
        let snapshot = Fixtures.shop()
        let options = RenderOptions(showReleased: true, largeTreeThreshold: 0)
        let document = DOTWriter(options: options).document(for: snapshot)
        #expect(document.layout == .givenPositions)
        #expect(document.text.contains(#"pos=""#))
        let svg = try SVGElement.parse(SnapshotRenderer.render(snapshot, format: .svg, options: options))
        if let folder = ProcessInfo.processInfo.environment["COORDLENS_KEEP_PICTURES"] {
            try Data(SnapshotRenderer.render(snapshot, format: .png, options: options)).write(to: URL(fileURLWithPath: folder + "/given-positions.png"))
        }
        var boxes: [CoordinatorID: ShapeFrame] = [:]
        for node in snapshot.nodes {
            let group = try #require(svg.element(id: DOTWriter.name(node.id)), "c\(node.id) is drawn")
            guard let frame = ShapeFrame(group.shape) else {
                Issue.record("c\(node.id) has no shape to measure")
                return
            }
            boxes[node.id] = frame
        }
        let frames = Array(boxes.values)
        for (index, frame) in frames.enumerated() {
            for other in frames[(index + 1)...] {
                #expect(!frame.overlaps(other), "\(frame) overlaps \(other)")
            }
        }
        for node in snapshot.nodes {
            for child in node.children {
                // SVG's y grows downwards: a child's top is below its parent's bottom.
                #expect(try #require(boxes[child]).minY > (try #require(boxes[node.id])).maxY)
            }
        }
        #expect(svg.element(id: "c3")?.shapeFill?.lowercased() == "#cf222e", "the retained checkout is still red")
    }

    @Test func aTreeTooBigForDotIsLaidOutHereAndStillShowsEveryLeak() throws {
        var tree = SessionTree(header: SessionHeader(app: "Big", run: "r"))
        var seq = 0
        func apply(_ event: Event, at time: Double = 0) {
            seq += 1
            tree.apply(EventRecord(seq: seq, time: time, event: event))
        }
        apply(.add(id: 1, type: "AppCoordinator", parent: nil))
        for flow in 0..<60 {
            let flowID = 2 + flow * 50
            apply(.add(id: CoordinatorID(flowID), type: "FlowCoordinator", parent: 1))
            for step in 1..<50 { apply(.add(id: CoordinatorID(flowID + step), type: "StepCoordinator", parent: CoordinatorID(flowID))) }
            apply(.dismiss(id: CoordinatorID(flowID + 49)), at: 1)
        }
        apply(.end, at: 10)
        let snapshot = tree.snapshot()
        #expect(snapshot.nodes.count == 3_001)
        var everyNode = RenderOptions()
        everyNode.collapseThreshold = .max
        let document = DOTWriter(options: everyNode).document(for: snapshot)
        #expect(document.layout == .givenPositions)
        let svg = try SVGElement.parse(SnapshotRenderer.render(snapshot, format: .svg, options: everyNode))
        #expect(svg.elements(withClass: "verdict-retained").count == 60)
        #expect(svg.elements(withClass: "node").count == 3_002, "every coordinator and the legend")
        // By default the same tree collapses: each flow keeps its leak, its 48 other steps share one summary.
        let collapsed = try SVGElement.parse(SnapshotRenderer.render(snapshot, format: .svg))
        #expect(collapsed.elements(withClass: "verdict-retained").count == 60)
        #expect(collapsed.elements(withClass: "summary").filter { $0.classes.contains("node") }.count == 60)
    }
}

/// A drawn shape's bounding box in SVG coordinates, read from its path or polygon points.
struct ShapeFrame: CustomStringConvertible {
    var minX, minY, maxX, maxY: Double

    init(minX: Double, minY: Double, maxX: Double, maxY: Double) {
        (self.minX, self.minY, self.maxX, self.maxY) = (minX, minY, maxX, maxY)
    }

    init?(_ shape: SVGElement?) {
        guard let shape, let data = shape.attributes["d"] ?? shape.attributes["points"] else { return nil }
        let numbers = data.split(whereSeparator: { !"-.0123456789".contains($0) }).compactMap { Double($0) }
        let xs = stride(from: 0, to: numbers.count - 1, by: 2).map { numbers[$0] }
        let ys = stride(from: 1, to: numbers.count, by: 2).map { numbers[$0] }
        guard let minX = xs.min(), let maxX = xs.max(), let minY = ys.min(), let maxY = ys.max() else { return nil }
        (self.minX, self.minY, self.maxX, self.maxY) = (minX, minY, maxX, maxY)
    }

    func overlaps(_ other: ShapeFrame) -> Bool {
        minX < other.maxX && other.minX < maxX && minY < other.maxY && other.minY < maxY
    }

    var description: String { "(\(minX),\(minY))–(\(maxX),\(maxY))" }
}
