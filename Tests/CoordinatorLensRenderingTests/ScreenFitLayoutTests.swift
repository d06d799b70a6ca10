import CoordinatorLens
import CoordinatorLensRendering
import Testing

/// The page's small trees wrap to its frame's shape: a long row of leaves becomes a grid under its parent, beside its
/// subtree siblings on a wide frame; a tall frame may stack subtrees too. The positions libgvc is given, read from the
/// DOT text (the browser test draws them through libgvc and measures them on screen).
@Suite struct ScreenFitLayoutTests {
    /// Home#1 holding nine tab screens (#2…#10) and, after them, a checkout flow #11 with a payment screen #12.
    static let tabs: Snapshot = {
        var events: [(Double, Event)] = [(0, .add(id: 1, type: "HomeCoordinator", parent: nil))]
        for id in 2...10 { events.append((0, .add(id: CoordinatorID(id), type: "TabPanelCoordinator", parent: 1))) }
        events.append((0, .add(id: 11, type: "CheckoutCoordinator", parent: 1)))
        events.append((0, .add(id: 12, type: "PaymentCoordinator", parent: 11)))
        return Fixtures.replay(events, at: 10)
    }()

    /// Each coordinator's box as the DOT text places it (`pos="x,y!"`, its centre, y up, and its size in inches, which
    /// libgvc draws as given), and the picture's size in points. Read from the text, not drawn: these tests run beside
    /// suites that keep libgvc's one owner busy for minutes, and waiting for it held a thread of the test pool.
    static func frames(aspect: Double?) throws -> (boxes: [CoordinatorID: ShapeFrame], width: Double, height: Double) {
        var options = RenderOptions(largeTreeThreshold: 0)
        options.drawsTitleAndLegend = false
        options.aspect = aspect
        let dot = DOTWriter(options: options).document(for: tabs).text
        var boxes: [CoordinatorID: ShapeFrame] = [:]
        for node in tabs.nodes {
            let statement = try #require(dot.split(separator: "\n").first { $0.hasPrefix("  \(DOTWriter.name(node.id)) [") })
            func number(_ key: String) throws -> [Double] {
                let start = try #require(statement.range(of: key)).upperBound
                return statement[start...].prefix { "-.0123456789,".contains($0) }.split(separator: ",").compactMap { Double($0) }
            }
            let centre = try number("pos=\"")
            let width = try number("width=")[0] * 72
            let height = try number("height=")[0] * 72
            // SVG's way up, as ShapeFrame measures drawn shapes: y grows downwards.
            boxes[node.id] = ShapeFrame(
                minX: centre[0] - width / 2, minY: -centre[1] - height / 2, maxX: centre[0] + width / 2, maxY: -centre[1] + height / 2)
        }
        let (minX, maxX) = (boxes.values.map(\.minX).min() ?? 0, boxes.values.map(\.maxX).max() ?? 0)
        let (minY, maxY) = (boxes.values.map(\.minY).min() ?? 0, boxes.values.map(\.maxY).max() ?? 0)
        return (boxes, maxX - minX, maxY - minY)
    }

    /// The scale at which a picture of this size fills a frame `aspect` wide and 1 tall.
    static func fittedScale(_ width: Double, _ height: Double, in aspect: Double) -> Double { min(aspect / width, 1 / height) }

    static func assertApartAndBelowTheirParents(_ boxes: [CoordinatorID: ShapeFrame]) throws {
        let frames = Array(boxes.values)
        for (index, frame) in frames.enumerated() {
            for other in frames[(index + 1)...] { #expect(!frame.overlaps(other), "\(frame) overlaps \(other)") }
        }
        for node in tabs.nodes {
            for child in node.children { #expect(try #require(boxes[child]).minY > (try #require(boxes[node.id])).maxY) }
        }
    }

    @Test func aWideFramesTabsBecomeAGridBesideTheirSubtreeSibling() throws {
        let (boxes, width, height) = try Self.frames(aspect: 1.19)
        try Self.assertApartAndBelowTheirParents(boxes)
        let tabRows = Set((2...10).map { (boxes[CoordinatorID($0)]!.minY).rounded() })
        #expect(tabRows.count > 1, "the nine tabs wrap into rows")
        // The flow is never put below the tabs: it stays on their first row, and its payment screen below it.
        #expect(abs(boxes[11]!.minY - boxes[2]!.minY) < 1, "the checkout flow is on the tabs' first row")
        let unwrapped = try Self.frames(aspect: nil)
        #expect(Set((2...10).map { (unwrapped.boxes[CoordinatorID($0)]!.minY).rounded() }).count == 1, "no frame, one row")
        let gain = Self.fittedScale(width, height, in: 1.19) / Self.fittedScale(unwrapped.width, unwrapped.height, in: 1.19)
        #expect(gain >= 1.25, "wrapped, it fits a 1.19 frame \(gain)× larger")
    }

    @Test func aTallFrameMayStackSubtreesAndFitsLarger() throws {
        let (boxes, width, height) = try Self.frames(aspect: 0.59)
        try Self.assertApartAndBelowTheirParents(boxes)
        let wide = try Self.frames(aspect: 1.19)
        #expect(Self.fittedScale(width, height, in: 0.59) > Self.fittedScale(wide.width, wide.height, in: 0.59))
    }

    @Test func dotsLayoutsKeepTheirShape() {
        // `render` of a small tree: Graphviz's dot places it, whatever the aspect.
        var options = RenderOptions()
        options.aspect = 0.5
        #expect(DOTWriter(options: options).document(for: Self.tabs).layout == .dot)
    }

    /// libgvc routes edges around boxes in time that grows steeply (23.7 s for a wrapped tree of 291 boxes), so only a
    /// small wrapped tree asks for it; a bigger one is drawn with straight lines.
    @Test func onlyASmallWrappedTreeRoutesItsEdgesAroundTheBoxes() {
        var options = RenderOptions(largeTreeThreshold: 0)
        options.aspect = 1.19
        #expect(DOTWriter(options: options).document(for: Self.tabs).text.contains("splines=true"))
        var events: [(Double, Event)] = [(0, .add(id: 1, type: "AppCoordinator", parent: nil))]
        var next = 2
        for _ in 0..<10 {
            let flow = CoordinatorID(next)
            events.append((0, .add(id: flow, type: "FlowCoordinator", parent: 1)))
            next += 1
            for _ in 0..<19 {
                events.append((0, .add(id: CoordinatorID(next), type: "ScreenCoordinator", parent: flow)))
                next += 1
            }
        }
        let big = DOTWriter(options: options).document(for: Fixtures.replay(events, at: 10))
        #expect(big.layout == .givenPositions)
        #expect(big.text.contains("splines=line") && !big.text.contains("splines=true"))
    }
}
