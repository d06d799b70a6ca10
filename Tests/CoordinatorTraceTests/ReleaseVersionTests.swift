import CoordinatorTrace
import CoordinatorWire
import Foundation
import Testing

/// The version lives in one place: CHANGELOG.md's newest release, `PackageVersion.current`, and what the hook sends in
/// its session line agree (`coordlens --version` is checked against the same constant by DefaultBuildHistoryTests).
@Suite struct ReleaseVersionTests {
    @Test func theChangelogTheConstantAndTheSessionLineAgree() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let changelog = try String(contentsOf: root.appendingPathComponent("CHANGELOG.md"), encoding: .utf8)
        let newest = changelog.split(separator: "\n").lazy.compactMap { line -> Substring? in
            guard line.hasPrefix("## ["), !line.hasPrefix("## [Unreleased]"), let end = line.firstIndex(of: "]") else { return nil }
            return line[line.index(line.startIndex, offsetBy: 4)..<end]
        }.first
        #expect(newest.map(String.init) == PackageVersion.current, "CHANGELOG.md's newest release: \(newest ?? "none")")

        let tracer = Tracer()
        let sink = MemorySink()
        tracer.start(app: "Versioned", sink: sink)
        tracer.end()
        let header = try #require(sink.lines.first)
        let fields = try #require(try JSONSerialization.jsonObject(with: Data(header.utf8)) as? [String: Any])
        #expect(fields["hook"] as? String == PackageVersion.current, "\(header)")
    }
}
