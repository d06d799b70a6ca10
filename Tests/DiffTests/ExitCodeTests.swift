import CoordinatorLens
import CoordinatorLensRendering
import Foundation
import TestSupport
import Testing

@Suite(
    "coordlens diff, run as a process",
    .enabled(if: BuiltProduct.coordlens.url != nil, Comment(rawValue: BuiltProduct.coordlens.missing.description))
)
struct ExitCodeTests {
    /// A fresh directory holding the runs the tests diff: before (leaks the checkout), fixed, and a branch that
    /// leaks it and also a new banner.
    private static func workspace() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("coordlens-diff-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var branch = ShopFlow.run("branch", firstID: 300, leaksCheckout: true)
        let banner = branch.add("BannerCoordinator", under: 300)
        branch.dismiss(banner)
        let files = [
            "before.ndjson": ShopFlow.run("before", leaksCheckout: true).ndjson,
            "fixed.ndjson": ShopFlow.run("fixed", firstID: 100, leaksCheckout: false).ndjson,
            "same.ndjson": ShopFlow.run("same", firstID: 200, leaksCheckout: true).ndjson,
            "branch.ndjson": branch.ndjson,
            "both.ndjson": ShopFlow.run("before", leaksCheckout: true).ndjson + branch.ndjson,
        ]
        for (name, text) in files {
            try Data(text.utf8).write(to: directory.appendingPathComponent(name))
        }
        return directory
    }

    @Test("0 when B fixes a leak or leaks only what A leaked")
    func noNewLeak() async throws {
        let directory = try Self.workspace()
        let fixed = try await BuiltProduct.coordlens.runAsync(["diff", "before.ndjson", "fixed.ndjson"], in: directory)
        #expect(fixed.status == 0)
        #expect(fixed.standardOutput.contains("✓     CheckoutCoordinator"))
        #expect(fixed.standardOutput.hasSuffix("+0 -0, new leaks 0, fixed 1 (CheckoutCoordinator)\n"))

        let same = try await BuiltProduct.coordlens.runAsync(["diff", "before.ndjson", "same.ndjson"], in: directory)
        #expect(same.status == 0)
        #expect(same.standardOutput.contains("still leaking 1 (CheckoutCoordinator)"))
    }

    @Test("1 when B has a leak A does not")
    func newLeak() async throws {
        let directory = try Self.workspace()
        let outcome = try await BuiltProduct.coordlens.runAsync(["diff", "before.ndjson", "branch.ndjson"], in: directory)
        #expect(outcome.status == 1)
        #expect(outcome.standardOutput.contains("!   BannerCoordinator"))
        #expect(outcome.standardOutput.hasSuffix("+1 -0, new leaks 1 (BannerCoordinator), fixed 0, still leaking 1 (CheckoutCoordinator)\n"))

        let reverse = try await BuiltProduct.coordlens.runAsync(["diff", "branch.ndjson", "before.ndjson"], in: directory)
        #expect(reverse.status == 0)
    }

    @Test("2 on bad usage or input")
    func badUsage() async throws {
        let directory = try Self.workspace()
        try Data("not json at all\n".utf8).write(to: directory.appendingPathComponent("garbage.txt"))
        let cases: [([String], String)] = [
            (["diff", "before.ndjson"], "two inputs"),
            (["diff", "before.ndjson", "missing.ndjson"], "cannot read missing.ndjson"),
            (["diff", "before.ndjson", "garbage.txt"], "neither a recording"),
            (["diff", "before.ndjson", "both.ndjson"], "holds 2 sessions"),
            (["diff", "before.ndjson", "fixed.ndjson", "--at-mark", "nope"], "no mark \"nope\""),
            (["diff", "before.ndjson", "fixed.ndjson", "--session", "before", "--session", "nope"], "holds no session nope"),
            (["diff", "before.ndjson", "fixed.ndjson", "-o", "out.unknown"], "cannot tell the format"),
            (["diff", "--growth", "before.ndjson"], "--mark"),
        ]
        for (arguments, message) in cases {
            let outcome = try await BuiltProduct.coordlens.runAsync(arguments, in: directory)
            #expect(outcome.status == 2, "\(arguments)")
            #expect(outcome.standardError.contains(message), "\(arguments): \(outcome.standardError)")
        }
    }

    @Test("--session twice picks A's and B's run from one file")
    func sessionPerSide() async throws {
        let directory = try Self.workspace()
        let outcome = try await BuiltProduct.coordlens.runAsync(
            ["diff", "both.ndjson", "both.ndjson", "--session", "before", "--session", "branch"], in: directory
        )
        #expect(outcome.status == 1)
        #expect(outcome.standardOutput.contains("A  both.ndjson · Shop run before"))
        #expect(outcome.standardOutput.contains("B  both.ndjson · Shop run branch"))
    }

    @Test("a JSON snapshot from render --format json diffs against a recording")
    func snapshotInput() async throws {
        let directory = try Self.workspace()
        let render = try await BuiltProduct.coordlens.runAsync(["render", "before.ndjson", "-o", "before.json"], in: directory)
        #expect(render.status == 0)
        let outcome = try await BuiltProduct.coordlens.runAsync(["diff", "before.json", "fixed.ndjson", "--format", "json"], in: directory)
        #expect(outcome.status == 0)
        let json = try JSONObject.parse(Array(outcome.standardOutput.utf8))
        #expect((json["summary"] as? [String: Any])?["fixedLeaks"] as? Int == 1)
        #expect((json["a"] as? [String: Any])?["source"] as? String == "before.json")

        let cut = try await BuiltProduct.coordlens.runAsync(["diff", "before.json", "fixed.ndjson", "--at-seq", "3"], in: directory)
        #expect(cut.status == 2)
        #expect(cut.standardError.contains("is a snapshot"))
    }

    @Test("-o writes the picture; the exit status still reports the new leak")
    func pictureOutput() async throws {
        let directory = try Self.workspace()
        let outcome = try await BuiltProduct.coordlens.runAsync(["diff", "before.ndjson", "branch.ndjson", "-o", "diff.svg"], in: directory)
        #expect(outcome.status == 1)
        let svg = try SVGElement.parse(Array(try Data(contentsOf: directory.appendingPathComponent("diff.svg"))))
        #expect(svg.elements(withClass: "diff-new-leak").count == 1)
        #expect(svg.elements(withClass: "still-leaking").count == 1)
    }

    @Test("--growth exits 1 when a type grows at every mark, 0 when none does")
    func growth() async throws {
        let directory = try Self.workspace()
        var leaking = RunRecording(run: "loop")
        var clean = RunRecording(run: "clean")
        let app = leaking.add("AppCoordinator", under: nil)
        let root = clean.add("AppCoordinator", under: nil)
        for _ in 0..<3 {
            let detail = leaking.add("DetailCoordinator", under: app)
            leaking.dismiss(detail)
            leaking.mark("iteration")
            let other = clean.add("DetailCoordinator", under: root)
            clean.finish(other, from: root)
            clean.mark("iteration")
        }
        try Data(leaking.ndjson.utf8).write(to: directory.appendingPathComponent("loop.ndjson"))
        try Data(clean.ndjson.utf8).write(to: directory.appendingPathComponent("clean.ndjson"))

        let grows = try await BuiltProduct.coordlens.runAsync(["diff", "--growth", "loop.ndjson", "--mark", "iteration"], in: directory)
        #expect(grows.status == 1)
        #expect(grows.standardOutput.contains("DetailCoordinator  1 → 2 → 3"))
        let json = try await BuiltProduct.coordlens.runAsync(["diff", "--growth", "loop.ndjson", "--mark", "iteration", "--format", "json"], in: directory)
        #expect(json.status == 1)
        let growing = try JSONObject.parse(Array(json.standardOutput.utf8))["growing"] as? [[String: Any]]
        #expect(growing?.first?["counts"] as? [Int] == [1, 2, 3])

        let flat = try await BuiltProduct.coordlens.runAsync(["diff", "--growth", "clean.ndjson", "--mark", "iteration"], in: directory)
        #expect(flat.status == 0)
        #expect(flat.standardOutput.hasSuffix("no type grows at every mark\n"))

        let missing = try await BuiltProduct.coordlens.runAsync(["diff", "--growth", "clean.ndjson", "--mark", "nope"], in: directory)
        #expect(missing.status == 2)

        // `coordlens growth` is the command; `diff --growth` its old name, with the same output.
        let command = try await BuiltProduct.coordlens.runAsync(["growth", "loop.ndjson", "--mark", "iteration"], in: directory)
        #expect(command.status == 1)
        #expect(command.standardOutput == grows.standardOutput)
        let written = try await BuiltProduct.coordlens.runAsync(["growth", "loop.ndjson", "--mark", "iteration", "-o", "growth.json"], in: directory)
        #expect(written.status == 1)
        let file = try Data(contentsOf: directory.appendingPathComponent("growth.json"))
        #expect((try JSONObject.parse(Array(file))["growing"] as? [[String: Any]])?.count == 1)
        #expect(try await BuiltProduct.coordlens.runAsync(["growth", "clean.ndjson", "--mark", "iteration"], in: directory).status == 0)
    }
}
