import CoordinatorLens
import CoordinatorLensPage
import Foundation
import TestSupport
import Testing

/// The page's hand-written node JSON says what `JSONEncoder` says of the same nodes, field for field.
@Suite struct NodesJSONTests {
    private static func parsed(_ bytes: some Sequence<UInt8>) throws -> NSArray {
        try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? NSArray)
    }

    /// Every sample's recording (kept for reuse, shown again, screens left and freed, detached, string ids in the
    /// extra session) and one with the characters JSON escapes.
    private static func snapshots() throws -> [Snapshot] {
        let samples = PackageRoot.url.appendingPathComponent("samples")
        var found: [Snapshot] = []
        for folder in try FileManager.default.contentsOfDirectory(atPath: samples.path).sorted() {
            for name in ["stream.ndjson", "flow-library.ndjson", "fixed.ndjson"] {
                guard let bytes = FileManager.default.contents(atPath: samples.appendingPathComponent("\(folder)/\(name)").path) else { continue }
                found += try Recording(bytes: bytes).sessions.map { try $0.snapshot() }
            }
        }
        let awkward = [
            #"{"event":"session","v":1,"app":"Odd","run":"odd"}"#,
            #"{"seq":1,"t":0,"event":"add","id":"root \"1\"","type":"Root\\Coordinator"}"#,
            #"{"seq":2,"t":1e-7,"event":"add","id":-3,"type":"Tab\u0001Coordinator","parent":"root \"1\"","file":"A/B.swift","line":7,"path":"/x/é/B.swift"}"#,
            #"{"seq":3,"t":0.5,"event":"bind","id":-3,"screen":"Ünïcode ✓"}"#,
            #"{"seq":4,"t":1.25,"event":"dismiss","id":-3,"via":"screen-left"}"#,
            #"{"seq":5,"t":1.5,"event":"bind","id":-3,"screen":"Again"}"#,
            #"{"seq":6,"t":9,"event":"dismiss","id":-3,"file":"A/C.swift","line":9,"function":"close()"}"#,
        ].joined(separator: "\n")
        found += try Recording(bytes: Array(awkward.utf8)).sessions.map { try $0.snapshot() }
        return found
    }

    @Test func everySampleNodeEncodesAsJSONEncoderEncodesIt() throws {
        let snapshots = try Self.snapshots()
        #expect(snapshots.count > 8)
        let encoder = JSONEncoder()
        var fields = Set<String>()
        for snapshot in snapshots {
            let expected = try Self.parsed(try encoder.encode(snapshot.nodes))
            let written = try Self.parsed(NodesJSON.encode(snapshot.nodes))
            #expect(written == expected, "\(snapshot.app)")
            for case let node as NSDictionary in expected { fields.formUnion(node.allKeys.compactMap { $0 as? String }) }
        }
        // The samples reach every optional field the writer has.
        for field in [
            "site", "doneAt", "deinitAt", "reason", "reasonKind", "removedFrom", "boundSite", "dismissedSite", "dismissedVia",
            "dismissedAt", "removedSite", "shownAgain", "kept", "screen",
        ] {
            #expect(fields.contains(field), "no sample has \(field)")
        }
    }

    /// The whole model, with its hand-written nodes and leak groups spliced in, says what `JSONEncoder` says of it.
    @Test func everySampleModelEncodesAsJSONEncoderEncodesIt() throws {
        let encoder = JSONEncoder()
        var groups = 0
        for snapshot in try Self.snapshots() {
            var model = TreeModel(
                snapshot, summary: SessionSummary(snapshot, state: "ended", version: 1, events: 1), seq: nil, history: nil,
                historyComplete: true, atEnd: true)
            if var first = model.leaks.first {
                // The fields only a baseline sets, and characters JSON escapes.
                first.standing = "known"
                first.note = "seen in \"main\"/é\u{1}"
                model.leaks.append(first)
            }
            groups += model.leaks.count
            let expected = try #require(try JSONSerialization.jsonObject(with: try encoder.encode(model)) as? NSDictionary)
            let written = try #require(try JSONSerialization.jsonObject(with: Data(try model.json())) as? NSDictionary)
            #expect(written == expected, "\(snapshot.app)")
        }
        #expect(groups > 10, "the samples have leak groups to write")
    }
}
