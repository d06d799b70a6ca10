import Foundation
import TestSupport
import Testing

@Suite struct RenderCommandTests {
    @Test(arguments: ["svg", "png", "pdf", "dot", "json"])
    func writesEachFormatFromTheExtension(format: String) async throws {
        let input = try Streams.file(Streams.leaking)
        let output = URL(fileURLWithPath: input).deletingLastPathComponent().appendingPathComponent("tree.\(format)").path
        let result = try await BuiltProduct.coordlens.runAsync(["render", input, "-o", output])
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

    @Test func readsStandardInputAndWritesStandardOutput() async throws {
        let result = try await BuiltProduct.coordlens.runAsync(["render", "-", "-o", "-", "--format", "dot"], input: Streams.leaking)
        #expect(result.status == 0)
        #expect(result.standardOutput.contains("verdict-retained"))
    }

    @Test func writesThroughASymlinkAndReplacesAFileOnlyWhole() async throws {
        // A symlink (as /dev/stdout is) is written through, never replaced by a file of its own.
        let input = try Streams.file(Streams.leaking)
        let folder = URL(fileURLWithPath: input).deletingLastPathComponent()
        let target = folder.appendingPathComponent("target.svg").path
        let link = folder.appendingPathComponent("link.svg").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        let through = try await BuiltProduct.coordlens.runAsync(["render", input, "-o", link])
        #expect(through.status == 0, "\(through.standardError)")
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: link)) == target, "the link is still a link")
        #expect(try String(contentsOfFile: target, encoding: .utf8).hasSuffix("</svg>\n"))
        let piped = try await BuiltProduct.coordlens.runAsync(["render", "-", "-o", "/dev/stdout", "--format", "dot"], input: Streams.leaking)
        #expect(piped.status == 0 && piped.standardOutput.hasPrefix("digraph"), "\(piped.standardError)")
        let full = try await BuiltProduct.coordlens.runAsync(["render", "-", "-o", "/dev/full", "--format", "dot"], input: Streams.leaking)
        #expect(full.status != 0 && full.standardError.contains("cannot write /dev/full"), "a full device is an error: \(full.standardError)")

        // A file is replaced only by a whole picture, and no half-written one is left beside it.
        let output = folder.appendingPathComponent("tree.svg").path
        try Data("earlier".utf8).write(to: URL(fileURLWithPath: output))
        let refused = try await BuiltProduct.coordlens.runAsync(["render", input, "-o", output, "--at-mark", "no-such-mark"])
        #expect(refused.status != 0)
        #expect(try String(contentsOfFile: output, encoding: .utf8) == "earlier")
        let drawn = try await BuiltProduct.coordlens.runAsync(["render", input, "-o", output])
        #expect(drawn.status == 0, "\(drawn.standardError)")
        #expect(try String(contentsOfFile: output, encoding: .utf8).hasSuffix("</svg>\n"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.contains(".partial-") }.isEmpty)
    }

    @Test func severalSessionsNeedASessionChoice() async throws {
        let both = Streams.leaking + Streams.clean
        let ambiguous = try await BuiltProduct.coordlens.runAsync(["render", "-", "-o", "-", "--format", "dot"], input: both)
        #expect(ambiguous.status == 2)
        #expect(ambiguous.standardError.contains("leaky") && ambiguous.standardError.contains("clean"))
        let chosen = try await BuiltProduct.coordlens.runAsync(["render", "-", "-o", "-", "--format", "dot", "--session", "clean"], input: both)
        #expect(chosen.status == 0)
        #expect(!chosen.standardOutput.contains("verdict-retained"))
    }

    @Test func unknownExtensionIsBadUsage() async throws {
        let result = try await BuiltProduct.coordlens.runAsync(["render", "-", "-o", "tree.bmp"], input: Streams.leaking)
        #expect(result.status == 2)
        #expect(result.standardError.contains("--format"))
    }
}
