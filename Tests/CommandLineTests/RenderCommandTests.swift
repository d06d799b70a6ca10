import Foundation
import TestSupport
import Testing

@Suite struct RenderCommandTests {
    @Test(arguments: ["svg", "png", "pdf", "dot", "json"])
    func writesEachFormatFromTheExtension(format: String) throws {
        let input = try Streams.file(Streams.leaking)
        let output = URL(fileURLWithPath: input).deletingLastPathComponent().appendingPathComponent("tree.\(format)").path
        let result = try BuiltProduct.coordlens.run(["render", input, "-o", output])
        #expect(result.status == 0, "\(result.standardError)")
        let bytes = try #require(FileManager.default.contents(atPath: output))
        let head = String(decoding: bytes.prefix(8), as: UTF8.self)
        switch format {
        case "svg": #expect(String(decoding: bytes, as: UTF8.self).contains("<svg"))
        case "png": #expect(Array(bytes.prefix(4)) == [0x89, 0x50, 0x4E, 0x47])
        case "pdf": #expect(head.hasPrefix("%PDF"))
        case "dot": #expect(head.hasPrefix("digraph"))
        default: #expect((try JSONSerialization.jsonObject(with: bytes) as? [String: Any])?["nodes"] != nil)
        }
    }

    @Test func readsStandardInputAndWritesStandardOutput() throws {
        let result = try BuiltProduct.coordlens.run(["render", "-", "-o", "-", "--format", "dot"], input: Streams.leaking)
        #expect(result.status == 0)
        #expect(result.standardOutput.contains("verdict-retained"))
    }

    @Test func severalSessionsNeedASessionChoice() throws {
        let both = Streams.leaking + Streams.clean
        let ambiguous = try BuiltProduct.coordlens.run(["render", "-", "-o", "-", "--format", "dot"], input: both)
        #expect(ambiguous.status == 2)
        #expect(ambiguous.standardError.contains("leaky") && ambiguous.standardError.contains("clean"))
        let chosen = try BuiltProduct.coordlens.run(["render", "-", "-o", "-", "--format", "dot", "--session", "clean"], input: both)
        #expect(chosen.status == 0)
        #expect(!chosen.standardOutput.contains("verdict-retained"))
    }

    @Test func unknownExtensionIsBadUsage() throws {
        let result = try BuiltProduct.coordlens.run(["render", "-", "-o", "tree.bmp"], input: Streams.leaking)
        #expect(result.status == 2)
        #expect(result.standardError.contains("--format"))
    }
}
