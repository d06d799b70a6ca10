import Foundation
import TestSupport
import Testing

/// The real `coordlens` on inputs and options built to break it: no forged output, no lost run, exit codes kept.
@Suite struct HostileInputTests {
    @Test(arguments: ["inf", "nan", "1e400"])
    func nonFiniteAtTimeExitsTwoInsteadOfPrintingInvalidJSON(value: String) async throws {
        let path = try Streams.file(Streams.leaking)
        for arguments in [
            ["check", path, "--format", "json", "--at-time", value],
            ["render", path, "-o", "-", "--format", "json", "--at-time", value],
            ["diff", path, path, "--format", "json", "--at-time", value],
        ] {
            let result = try await BuiltProduct.coordlens.runAsync(arguments)
            #expect(result.status == 2, "\(arguments): \(result.standardOutput)")
            #expect(result.standardError.contains("--at-time must be a finite number"), "\(arguments)")
            #expect(result.standardOutput.isEmpty)
        }
    }

    @Test func anOverLongLineIsAWarningWithItsNumberAndTheRestIsJudged() async throws {
        let long = #"{"seq":3,"t":0.2,"event":"bind","id":2,"screen":""# + String(repeating: "S", count: 3_000) + #""}"#
        let stream = Streams.leaking.replacingOccurrences(of: #"{"seq":3,"t":0.2,"event":"bind","id":2,"screen":"CheckoutViewController"}"#, with: long)
        let result = try await BuiltProduct.coordlens.runAsync(["check", "-", "--max-line-bytes", "1000", "--format", "json"], input: stream)
        #expect(result.status == 1)
        let object = try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any]
        let session = (object?["sessions"] as? [[String: Any]])?.first
        let warnings = session?["warnings"] as? [[String: Any]]
        #expect(warnings?.first?["line"] as? Int == 4)
        #expect((warnings?.first?["message"] as? String)?.contains("longer than 1000 bytes") == true)
        #expect(object?["retained"] as? Int == 1, "the lines after it still count")
        #expect(try await BuiltProduct.coordlens.runAsync(["check", "-", "--max-line-bytes", "0"], input: stream).status == 2)
    }

    @Test func anEmptyAppNameStillRendersAPicture() async throws {
        let stream = Streams.leaking.replacingOccurrences(of: #""app":"Shop""#, with: #""app":"\u001b""#)
        let folder = try Streams.file("", name: "unused")
        let output = URL(fileURLWithPath: folder).deletingLastPathComponent().appendingPathComponent("tree.svg").path
        let result = try await BuiltProduct.coordlens.runAsync(["render", "-", "-o", output], input: stream)
        #expect(result.status == 0, "\(result.standardError)")
        let svg = try SVGElement.parse(try Data(contentsOf: URL(fileURLWithPath: output)))
        #expect(svg.texts.first == "(unnamed)")
    }

    @Test func sparseIDsAndAByteOrderMarkAreJudgedLikeAnyOtherInput() async throws {
        var ids = [1_023]
        while ids.count < 20 { ids.append(2 * ids.last! + 1_025) }
        ids.append(1 << 62)
        var lines = ["\u{FEFF}" + #"{"event":"session","v":1,"app":"Sparse","run":"r"}"#]
        for (index, id) in ids.enumerated() {
            lines.append(#"{"seq":\#(index + 1),"t":\#(index),"event":"add","id":\#(id),"type":"C","parent":\#(index == 0 ? 1 : ids[index - 1])}"#)
        }
        lines.append(#"{"seq":22,"t":21,"event":"dismiss","id":\#(1 << 62)}"#)
        lines.append(#"{"seq":23,"t":30,"event":"end"}"#)
        let result = try await BuiltProduct.coordlens.runAsync(["check", "-", "--format", "json"], input: lines.joined(separator: "\n"))
        #expect(result.status == 1, "\(result.standardError)")
        let object = try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any]
        let session = (object?["sessions"] as? [[String: Any]])?.first
        #expect(session?["app"] as? String == "Sparse")
        #expect((session?["coordinators"] as? [Any])?.count == 21)
        #expect((session?["warnings"] as? [[String: Any]])?.map { $0["line"] as? Int } == [2], "only the unknown parent 1")
        #expect(object?["retained"] as? Int == 1)
    }
}
