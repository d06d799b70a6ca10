import CoordinatorLens
import CoordinatorLensRendering
import Testing

/// A retained child whose parent the retainer search found does not hold it (its processor does) hangs under that
/// parent by an attachment edge, not the bold red one that says the parent holds it, and the legend tells them apart.
@Suite struct AttachedEdgeTests {
    /// Vault#3 under App#1, Item#5 under Vault#3 and done; `label` is its `held` line's path, nil for none.
    private func snapshot(held label: String?) throws -> Snapshot {
        var lines = [
            #"{"event":"session","v":1,"app":"Vault","run":"r1"}"#,
            #"{"seq":1,"t":0,"event":"add","id":1,"type":"AppCoordinator"}"#,
            #"{"seq":2,"t":0,"event":"add","id":3,"type":"VaultCoordinator","parent":1}"#,
            #"{"seq":3,"t":0.1,"event":"add","id":5,"type":"VaultItemCoordinator","parent":3}"#,
            #"{"seq":4,"t":1,"event":"dismiss","id":5}"#,
        ]
        if let label { lines.append(#"{"seq":5,"t":4,"event":"held","id":5,"via":"live","count":7,"label":"\#(label)"}"#) }
        lines.append(#"{"seq":6,"t":4,"event":"end"}"#)
        let bytes = Array((lines.joined(separator: "\n") + "\n").utf8)
        return try #require(Recording(bytes: bytes).sessions.first).snapshot()
    }

    static let byProcessor = #"VaultCoordinator\u001f3\u001fprocessor\u001fproperty\u001eVaultProcessor\u001f\u001fcoordinator\u001fproperty"#
    static let byParent = #"VaultCoordinator\u001f3\u001fchildren[0]\u001felement"#
    static let legendRow = "dotted edge: attached under a live parent that does not hold it"

    @Test func anEdgeItsParentDoesNotHoldIsAttachmentAndTheLegendSaysSo() throws {
        let dot = DOTWriter().write(try snapshot(held: Self.byProcessor))
        let edge = try #require(edgeStatement(3, 5, in: dot))
        #expect(edge.contains("class=\"attached-retained\"") && edge.contains("style=dotted"), "\(edge)")
        #expect(!edge.contains("holds-retained") && !edge.contains("penwidth=3"), "not drawn as the parent holding it")
        #expect(dot.contains(Self.legendRow))
        #expect(dot.contains("attached under VaultCoordinator#3, held by VaultProcessor.coordinator"), "the node's label gives the holder")
        // Held by the parent, or not searched: the bold red edge, and a legend without the attachment row.
        for label in [Self.byParent, nil] {
            let dot = DOTWriter().write(try snapshot(held: label))
            let edge = try #require(edgeStatement(3, 5, in: dot))
            #expect(edge.contains("class=\"holds-retained\"") && edge.contains("penwidth=3"), "\(label ?? "no held line"): \(edge)")
            #expect(!dot.contains(Self.legendRow), "a picture with no attachment edge keeps its legend")
        }
    }
}
