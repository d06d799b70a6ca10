import Foundation
import TestSupport
import Testing

/// The public surface is enough for someone reading recordings from Swift: `ReadingRecordings` (and the snippet in
/// docs/READING-RECORDINGS.md) compile against the built modules as another package's code would, and do on the
/// committed samples what `coordlens check` and `coordlens diff` did when the samples' reports were written.
///
/// Every target of this package sees `package` declarations, so the compile check runs `swiftc` itself, without
/// `-package-name`: to it `package` declarations do not exist.
struct OutsiderTests {
    static let samples = [
        "ad-coordinator", "coordinator-sample", "deliveroo-inverted", "deliveroo-traditional", "rxflow-flow", "segue-slot", "xcoordinator-router", "yui",
    ]

    @Test(arguments: samples) func aSampleJudgesAsItsReportSays(_ sample: String) throws {
        let stream = try [UInt8](Data(contentsOf: PackageRoot.url.appendingPathComponent("samples/\(sample)/stream.ndjson")))
        let report = try String(contentsOf: PackageRoot.url.appendingPathComponent("samples/\(sample)/report.txt"), encoding: .utf8)
        let reported = report.split(separator: "\n").filter { $0.hasPrefix("  RETAINED ") }.map { String($0.dropFirst("  RETAINED ".count)) }

        let (runs, fails) = try ReadingRecordings.judge(stream, source: "stream.ndjson")

        #expect(runs.count == 1)
        #expect(runs.flatMap(\.leaks) == reported)
        #expect(fails == !reported.isEmpty)
        for run in runs {
            #expect(report.hasPrefix("\(run.app) run "))
            let texts = try SVGElement.parse(run.svg).descendants.filter { $0.name == "text" }.map(\.text)
            for leak in run.leaks {
                let type = String(leak.prefix { $0 != "#" })
                #expect(texts.contains { $0.contains(type) }, "\(sample): no node labelled \(type) in the picture")
            }
        }
    }

    @Test func anUnreadableRecordingSaysWhy() throws {
        let error = #expect(throws: ReadingRecordings.Unusable.self) {
            try ReadingRecordings.judge(Array("not json\n".utf8), source: "bad.ndjson")
        }
        #expect(error?.diagnostic.line == 1)
    }

    @Test func twoRunsDiffAsTheCheckoutFixSampleSays() throws {
        let folder = PackageRoot.url.appendingPathComponent("samples/checkout-fix")
        let before = try [UInt8](Data(contentsOf: folder.appendingPathComponent("before.ndjson")))
        let after = try [UInt8](Data(contentsOf: folder.appendingPathComponent("after.ndjson")))
        let report = try String(contentsOf: folder.appendingPathComponent("diff.txt"), encoding: .utf8)

        let (fixed, new, svg) = try ReadingRecordings.compare(before: before, after: after)

        #expect(fixed == Self.section("fixed leaks:", of: report))
        #expect(new == Self.section("new leaks:", of: report))
        #expect(!fixed.isEmpty)
        let texts = try SVGElement.parse(svg).descendants.filter { $0.name == "text" }.map(\.text)
        #expect(texts.contains { $0.contains("CheckoutCoordinator") })
    }

    /// The leaks listed under `heading` in a `coordlens diff` text report, without their marks; none without it.
    static func section(_ heading: String, of report: String) -> [String] {
        let lines = report.split(separator: "\n", omittingEmptySubsequences: false)
        guard let start = lines.firstIndex(where: { $0 == heading }) else { return [] }
        return lines[(start + 1)...].prefix { $0.hasPrefix("  ") }.map { String($0.dropFirst(2).drop { $0 != " " }.dropFirst()) }
    }

    @Test func theOutsidersCodeCompilesWithoutPackageAccess() async throws {
        let file = PackageRoot.url.appendingPathComponent("Tests/CoordinatorLensRenderingTests/Outsider/ReadingRecordings.swift")
        let run = try await Self.typecheck(file, asLibrary: true)
        #expect(run.status == 0, "ReadingRecordings.swift needs more than the public surface:\n\(run.standardError)")
    }

    @Test func theReadingRecordingsSnippetCompilesWithoutPackageAccess() async throws {
        let page = try String(contentsOf: PackageRoot.url.appendingPathComponent("docs/READING-RECORDINGS.md"), encoding: .utf8)
        guard let section = page.range(of: "# Reading recordings from Swift"),
            let open = page.range(of: "```swift\n", range: section.upperBound..<page.endIndex),
            let close = page.range(of: "```\n", range: open.upperBound..<page.endIndex)
        else {
            Issue.record("docs/READING-RECORDINGS.md has no Swift snippet under \"# Reading recordings from Swift\"")
            return
        }
        let folder = try TemporaryFolder("outsider")
        let file = URL(fileURLWithPath: folder.file("main.swift"))
        try String(page[open.upperBound..<close.lowerBound]).write(to: file, atomically: true, encoding: .utf8)
        let run = try await Self.typecheck(file, asLibrary: false)
        #expect(run.status == 0, "docs/READING-RECORDINGS.md's snippet needs more than the public surface:\n\(run.standardError)")
    }

    /// The control: the same compile refuses what the project's modules share with `package`, so the two tests above
    /// could fail.
    @Test func packageDeclarationsAreHiddenFromTheOutsider() async throws {
        let folder = try TemporaryFolder("outsider")
        let file = URL(fileURLWithPath: folder.file("main.swift"))
        try """
        import CoordinatorLens
        import CoordinatorLensRendering
        var strings = StringInterner()
        _ = GraphvizRenderer.shared
        """.write(to: file, atomically: true, encoding: .utf8)
        let run = try await Self.typecheck(file, asLibrary: false)
        #expect(run.status != 0)
        #expect(run.standardError.contains("cannot find 'StringInterner' in scope"), "\(run.standardError)")
        #expect(run.standardError.contains("cannot find 'GraphvizRenderer' in scope"), "\(run.standardError)")
    }

    /// Type-checks `file` as another package would see the built CoordinatorLens and CoordinatorLensRendering: their
    /// module files from the products directory of this test binary, libgvc's headers for the CGraphviz module they
    /// import, and no `-package-name`.
    static func typecheck(_ file: URL, asLibrary: Bool) async throws -> ProcessRun {
        let modules = try #require(
            BuiltProduct("").searchedDirectories.lazy.flatMap { [$0.appendingPathComponent("Modules"), $0] }.first {
                FileManager.default.fileExists(atPath: $0.appendingPathComponent("CoordinatorLensRendering.swiftmodule").path)
            }, "no CoordinatorLensRendering.swiftmodule near the test binary")
        let environment = URL(fileURLWithPath: "/usr/bin/env")
        let flags = try await ProcessRun.runAsync(environment, ["pkg-config", "--cflags-only-I", "libgvc"], timeout: 30)
        try #require(flags.status == 0, "pkg-config libgvc: \(flags.standardError)")
        let includes = flags.standardOutput.split(whereSeparator: \.isWhitespace).flatMap { ["-Xcc", String($0)] }
        let arguments =
            ["swiftc", "-typecheck", "-I", modules.path, "-I", PackageRoot.path("Sources/CGraphviz")] + includes
            + (asLibrary ? ["-parse-as-library"] : []) + [file.path]
        return try await ProcessRun.runAsync(environment, arguments, timeout: 300)
    }
}
