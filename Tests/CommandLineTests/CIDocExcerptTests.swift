import Foundation
import TestSupport
import Testing

/// docs/CI.md's "CoordinatorLens in CI" excerpts are what the built `coordlens` prints for the sample, line for line.
@Suite(.serialized) struct CIDocExcerptTests {
    /// The fenced blocks of docs/CI.md's "CoordinatorLens in CI" section, as (language, lines).
    private static func blocks() throws -> [(language: String, lines: [String])] {
        let ciDoc = try String(contentsOf: PackageRoot.url.appendingPathComponent("docs/CI.md"), encoding: .utf8)
        let section =
            try #require(ciDoc.components(separatedBy: "\n## CoordinatorLens in CI\n").dropFirst().first)
            .components(separatedBy: "\n## ").first ?? ""
        var blocks: [(String, [String])] = []
        var open: (String, [String])?
        for line in section.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if line.hasPrefix("```") {
                if let block = open {
                    blocks.append(block)
                    open = nil
                } else {
                    open = (String(line.dropFirst(3)), [])
                }
            } else if open != nil {
                open!.1.append(line)
            }
        }
        return blocks
    }

    private static func output(_ format: String) async throws -> String {
        // As docs/CI.md runs it: from the package root, with the path relative to it.
        try await BuiltProduct.coordlens.runAsync(
            ["check", "samples/deliveroo-traditional/stream.ndjson", "--format", format], in: PackageRoot.url
        ).standardOutput
    }

    @Test func lineFormatExcerptsAreRealOutput() async throws {
        let blocks = try Self.blocks()
        let texts = blocks.filter { $0.language == "text" }
        let xml = blocks.filter { $0.language == "xml" }
        #expect(texts.count == 2 && xml.count == 1)
        for (format, block) in zip(["gcc", "github", "junit"], texts + xml) {
            let real = Set(try await Self.output(format).split(separator: "\n").map(String.init))
            for line in block.lines where line != "…" {
                #expect(real.contains(line), "\(format): \(line)")
            }
        }
    }

    @Test func sarifExcerptIsTheFirstResult() async throws {
        let block = try #require(try Self.blocks().first { $0.language == "json" })
        let excerpt = try JSONSerialization.jsonObject(with: Data(block.lines.joined(separator: "\n").utf8)) as? NSDictionary
        let log = try JSONSerialization.jsonObject(with: Data(try await Self.output("sarif").utf8)) as? [String: Any]
        let run = (log?["runs"] as? [[String: Any]])?.first
        let first = (run?["results"] as? [NSDictionary])?.first
        #expect(excerpt != nil && excerpt == first)
    }
}
