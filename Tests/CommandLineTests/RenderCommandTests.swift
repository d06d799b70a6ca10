import Foundation
import Testing

@Suite struct RenderCommandTests {
    @Test(arguments: ["svg", "png", "pdf", "dot", "json"])
    func writesEachFormatFromTheExtension(format: String) throws {
        let input = try CoordlensProcess.file(Streams.leaking)
        let output = URL(fileURLWithPath: input).deletingLastPathComponent().appendingPathComponent("tree.\(format)").path
        let result = try CoordlensProcess.run(["render", input, "-o", output])
        #expect(result.status == 0, "\(result.errors)")
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
        let result = try CoordlensProcess.run(["render", "-", "-o", "-", "--format", "dot"], input: Streams.leaking)
        #expect(result.status == 0)
        #expect(result.output.contains("verdict-retained"))
    }

    @Test func severalSessionsNeedASessionChoice() throws {
        let both = Streams.leaking + Streams.clean
        let ambiguous = try CoordlensProcess.run(["render", "-", "-o", "-", "--format", "dot"], input: both)
        #expect(ambiguous.status == 2)
        #expect(ambiguous.errors.contains("leaky") && ambiguous.errors.contains("clean"))
        let chosen = try CoordlensProcess.run(["render", "-", "-o", "-", "--format", "dot", "--session", "clean"], input: both)
        #expect(chosen.status == 0)
        #expect(!chosen.output.contains("verdict-retained"))
    }

    @Test func unknownExtensionIsBadUsage() throws {
        let result = try CoordlensProcess.run(["render", "-", "-o", "tree.bmp"], input: Streams.leaking)
        #expect(result.status == 2)
        #expect(result.errors.contains("--format"))
    }
}
