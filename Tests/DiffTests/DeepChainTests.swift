import CoordinatorLens
import CoordinatorLensRendering
import Foundation
import Testing

/// Diffs stay linear in the trees' size however deep they are: no output repeats every ancestor of every node.
@Suite("Diffing deep chains")
struct DeepChainTests {
    static let depth = 10_000

    /// AppCoordinator holding a chain of StepCoordinators `depth` deep; with `leaking`, every step is dismissed and
    /// never deinited, so each is a leak with a fingerprint of its own.
    static func chain(run: String, firstID: Int, leaking: Bool) -> Snapshot {
        var tree = SessionTree(header: SessionHeader(app: "Deep", run: run))
        var seq = 0
        func apply(_ event: Event) {
            seq += 1
            tree.apply(EventRecord(seq: seq, time: Double(seq) * 0.001, event: event))
        }
        apply(.add(id: CoordinatorID(firstID), type: "AppCoordinator", parent: nil))
        for id in firstID + 1..<firstID + depth { apply(.add(id: CoordinatorID(id), type: "StepCoordinator", parent: CoordinatorID(id - 1))) }
        if leaking { for id in firstID + 1..<firstID + depth { apply(.dismiss(id: CoordinatorID(id))) } }
        return tree.snapshot(at: Double(seq) * 0.001 + 10)
    }

    @Test("a 10,000-deep chain whose every step leaks diffs in linear output, deep paths abbreviated")
    func deepChain() throws {
        let a = Self.chain(run: "a", firstID: 1, leaking: false)
        let b = Self.chain(run: "b", firstID: 100_000, leaking: true)
        let diff = TreeDiff(a, b)
        #expect(diff.entries.count == Self.depth)
        #expect(diff.summary.newLeaks == Self.depth - 1)
        #expect(diff.newLeaks.count == Self.depth - 1, "each depth is a fingerprint of its own")
        let omitted = Self.depth - DeepPath.keptSteps - 1
        let deepest =
            "AppCoordinator/… \(NumberText.grouped(omitted)) more/"
            + Array(repeating: "StepCoordinator", count: DeepPath.keptSteps).joined(separator: "/")
        let deepestLeak = try #require(diff.newLeaks.max { $0.fingerprint.omittedSteps < $1.fingerprint.omittedSteps })
        #expect(deepestLeak.fingerprint.description == deepest + " (still-child)")
        #expect(deepestLeak.fingerprint.omittedSteps == omitted)
        #expect(deepestLeak.fingerprint.type == "StepCoordinator")

        let text = TreeDiffReport.text(for: diff)
        #expect(text.utf8.count < 1_000 * Self.depth, "\(text.utf8.count) bytes")
        #expect(text.contains("  ! " + deepest + " (still-child)\n"))

        let json = try JSONEncoder().encode(TreeDiffJSON(diff))
        #expect(json.count < 3_000 * Self.depth, "\(json.count) bytes")
        let object = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
        let coordinators = try #require(object["coordinators"] as? [[String: Any]])
        let lastPath = try #require(coordinators.last?["path"] as? String)
        let steps = lastPath.components(separatedBy: "/")
        #expect(steps.count == DeepPath.keptSteps + 2)
        #expect(steps.prefix(2) == ["AppCoordinator", "… \(NumberText.grouped(omitted)) more"])
        #expect(steps.last == "StepCoordinator[0]")
        #expect(coordinators.last?["depth"] as? Int == Self.depth - 1)
        #expect(
            coordinators[DeepPath.maximumSteps - 1]["path"] as? String
                == (["AppCoordinator"] + Array(repeating: "StepCoordinator", count: DeepPath.maximumSteps - 2)).joined(separator: "/")
                + "/StepCoordinator[0]", "32 steps still print whole")

        let dot = DiffDOTWriter().write(diff)
        #expect(dot.utf8.count < 1_000 * Self.depth)
    }

    @Test("a type path past 32 steps prints its root, the count left out and its last 24 steps")
    func typePathText() {
        let steps = [TypePath.Step(type: "Root", ordinal: 1)] + (1..<40).map { TypePath.Step(type: "S\($0)", ordinal: 0) }
        let text = TypePath(steps).description
        #expect(text == "Root[1]/… 15 more/" + (16..<39).map { "S\($0)" }.joined(separator: "/") + "/S39[0]")
        #expect(NumberText.grouped(1_234_567) == "1,234,567")
        #expect(NumberText.grouped(999) == "999")
    }

    @Test("type names with control characters cannot start a line of their own in the text report")
    func controlCharactersInNames() {
        let evilType = "Evil\nInjected line\u{1B}[31m"
        func run(_ app: String, _ run: String, leaking: Bool) -> Snapshot {
            var tree = SessionTree(header: SessionHeader(app: app, run: run))
            tree.apply(EventRecord(seq: 1, time: 0, event: .add(id: 1, type: "AppCoordinator", parent: nil)))
            tree.apply(EventRecord(seq: 2, time: 0, event: .add(id: 2, type: evilType, parent: 1)))
            if leaking { tree.apply(EventRecord(seq: 3, time: 0, event: .dismiss(id: 2))) }
            return tree.snapshot(at: 10)
        }
        let diff = TreeDiff(run("Shop\u{1B}[2J", "a", leaking: false), run("Shop", "b\r\nforged", leaking: true))
        let text = TreeDiffReport.text(for: diff)
        #expect(!text.unicodeScalars.contains { $0 != "\n" && $0.properties.generalCategory == .control })
        #expect(!text.split(separator: "\n").contains { $0.hasPrefix("Injected") || $0.hasPrefix("forged") })
        #expect(text.contains(#"Evil\nInjected line\u{1B}[31m"#))
        #expect(text.contains(#"Shop\u{1B}[2J"#))
        #expect(text.split(separator: "\n", omittingEmptySubsequences: false).count == 3 + 2 + 3 + 2)
    }
}
