import CoordinatorLens
import Foundation
import TestSupport
import Testing

/// The browser sample's real lifecycles, run now through the real hook and `coordlens` as processes: a library
/// coordinator cached and shown again, a share leak held by the router's completions, a tab panel per switch.
@Suite struct BrowserTabsTests {
    func record(_ arguments: [String], in folder: TemporaryFolder, as name: String) async throws -> String {
        let path = folder.file(name)
        let run = try await BuiltProduct.sample("BrowserTabsSample").runAsync(arguments + ["--file", path], timeout: BuiltProduct.sampleTimeout)
        try #require(run.status == 0, "\(run.standardError)")
        return path
    }

    func coordlens(_ arguments: [String]) async throws -> ProcessRun {
        try await BuiltProduct.coordlens.runAsync(arguments, timeout: 60)
    }

    @Test func aCachedLibraryShownAgainIsNeverALeakAndItsDismissalsAreKept() async throws {
        let snapshot = try await RecordedSample.run("BrowserTabsSample", ["--flow", "library"])
        let library = try #require(snapshot.nodes.first { $0.type == "LibraryCoordinator" })
        #expect(library.verdict == .alive)
        #expect(library.shownAgain?.count == 1, "swiped down, then shown again")
        #expect(library.kept != nil, "swiped down again, kept for reuse as the app declares")
        #expect(snapshot.retained.isEmpty)
    }

    @Test func aBaselineFromTheFixedBuildFailsThePanelPileUpAndDiffDoesToo() async throws {
        let folder = try TemporaryFolder("browser-tabs")
        let leaking = try await record([], in: folder, as: "leaking.ndjson")
        let fixed = try await record(["--fixed"], in: folder, as: "fixed.ndjson")
        let baseline = folder.file("baseline.json")
        #expect(try await coordlens(["baseline", fixed, "-o", baseline]).status == 0)
        let clean = try await coordlens(["check", fixed, "--baseline", baseline])
        #expect(clean.status == 0, "\(clean.standardOutput)")
        let checked = try await coordlens(["check", leaking, "--baseline", baseline])
        #expect(checked.status == 1)
        #expect(
            checked.standardOutput.contains(
                "PILED UP 9 TabPanelCoordinator in use under BrowserCoordinator/TabTrayCoordinator at the end of the run, 1 in the baseline"),
            "\(checked.standardOutput)")
        // The share sheet's coordinator, swiped down past the router: the hook found the closure that keeps it, and
        // names it from the sample's symbol table.
        #expect(
            checked.standardOutput.contains(
                "held by: BrowserCoordinator#1.router › Router.completions[ObjectIdentifier] (captured by closure #1 in BrowserCoordinator.showShareSheet()) › ShareCoordinator#3"
            ),
            "\(checked.standardOutput)")
        let json = try await coordlens(["check", leaking, "--format", "json"])
        #expect(json.standardOutput.contains(#""heldBy":{"outcome":"live","visited":"#), "\(json.standardOutput.prefix(2_000))")
        #expect(
            json.standardOutput.contains(
                #"{"holder":"Router","holderId":null,"field":"completions[ObjectIdentifier]","kind":"capture","closure":"closure #1 in BrowserCoordinator.showShareSheet()","leaking":"unknown","suspect":true}"#
            ))
        let diff = try await coordlens(["diff", fixed, leaking])
        #expect(diff.status == 1)
        #expect(diff.standardOutput.contains("9 TabPanelCoordinator in use under BrowserCoordinator/TabTrayCoordinator at the end of the run, 1 in A"))
        let same = try await coordlens(["diff", fixed, fixed])
        #expect(same.status == 0, "\(same.standardOutput)")
        let unknown = try await coordlens(["diff", fixed, leaking, "--max-alive-per-parent", "TabPanelCoordinator=1", "--no-such-option"])
        #expect(unknown.status == 2)
        #expect(unknown.standardError.contains("Unknown option '--no-such-option'"))
    }

    @Test func aRecordingOfOneFlowLeavesAnotherFlowsBaselineEntryNotExercised() async throws {
        let folder = try TemporaryFolder("browser-flows")
        let everything = try await record([], in: folder, as: "all.ndjson")
        let library = try await record(["--flow", "library"], in: folder, as: "library.ndjson")
        let baseline = folder.file("baseline.json")
        #expect(try await coordlens(["baseline", everything, "-o", baseline]).status == 0)
        let checked = try await coordlens(["check", library, "--baseline", baseline])
        #expect(checked.status == 0, "\(checked.standardOutput)")
        #expect(checked.standardOutput.contains("not exercised BrowserCoordinator/ShareCoordinator (detached)"))
        #expect(!checked.standardOutput.contains("remove it from the baseline"))
    }

    @Test func withoutTheDeclarationTheSameCacheIsRetainedAndReusableOnTheCommandLineKeepsIt() async throws {
        let folder = try TemporaryFolder("browser-reuse")
        let library = try await record(["--flow", "library"], in: folder, as: "library.ndjson")
        // The app declared it; `--reusable LibraryCoordinator=0` overrides that declaration to none kept.
        let none = try await coordlens(["check", library, "--reusable", "LibraryCoordinator=0"])
        #expect(none.status == 1)
        #expect(none.standardOutput.contains("RETAINED LibraryCoordinator#2"))
        let kept = try await coordlens(["check", library, "--reusable", "LibraryCoordinator"])
        #expect(kept.status == 0)
        #expect(kept.standardOutput.contains("kept LibraryCoordinator#2: kept for reuse by BrowserCoordinator#1"))
    }
}
