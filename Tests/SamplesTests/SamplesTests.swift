import CoordinatorLens
import Foundation
import TestSupport
import Testing

@Suite struct SamplesTests {
    /// Each sample, run now as a real process, ends with the verdicts samples/README.md promises.
    @Test(arguments: SampleExpectation.all)
    func sampleRunEndsWithItsVerdicts(_ expected: SampleExpectation) async throws {
        let snapshot = try await RecordedSample.run(expected.product)
        check(snapshot, against: expected)
    }

    /// The recordings committed under samples/ (what the pictures and reports show) say the same.
    @Test(arguments: SampleExpectation.all)
    func committedStreamShowsTheSameVerdicts(_ expected: SampleExpectation) throws {
        let stream = SamplesTests.samplesDirectory.appendingPathComponent("\(expected.folder)/stream.ndjson")
        let snapshot = try RecordedSample.snapshot(of: Data(contentsOf: stream))
        check(snapshot, against: expected)
    }

    @Test func deliverooTraditionalLeaksThreeYellowAndThreeGreenUnderALiveHome() async throws {
        let snapshot = try await RecordedSample.run("DeliverooTraditionalSample")
        let retained = snapshot.retained.map(\.type)
        #expect(retained.filter { $0 == "YellowCoordinator" }.count == 3)
        #expect(retained.filter { $0 == "GreenCoordinator" }.count == 3)
        #expect(snapshot.nodes.first { $0.type == "HomeCoordinator" }?.verdict == .alive)
        let checkout = try #require(snapshot.nodes.first { $0.type == "CheckoutCoordinator" })
        #expect(LeakReport.line(for: checkout).hasPrefix("CheckoutCoordinator#10 retained: still a child of HomeCoordinator#1 (added at DeliverooTraditionalSample/HomeCoordinator.swift:"))
    }

    /// The checkout flow before and after its fix: the diff shows the fixed leak and nothing else.
    @Test func checkoutFixRunsDifferOnlyByTheFix() async throws {
        let before = try await RecordedSample.run("CheckoutFixSample")
        let after = try await RecordedSample.run("CheckoutFixSample", ["--fixed"])
        #expect(before.retained.map(\.type) == ["CheckoutCoordinator"])
        #expect(after.retained.isEmpty)
        #expect(after.nodes.first { $0.type == "CheckoutCoordinator" }?.verdict == .released)
        let diff = TreeDiff(before, after)
        let markers = Dictionary(grouping: diff.entries, by: \.marker).mapValues(\.count)
        #expect(markers == [.fixedLeak: 1, .unchanged: diff.entries.count - 1])
        #expect(!diff.hasNewLeaks)
    }

    @Test func sampleRefusesAnUnknownArgument() async throws {
        let run = try await BuiltProduct.sample("YuiSample").runAsync(["--bogus"], timeout: BuiltProduct.sampleTimeout)
        #expect(run.status == 2)
    }

    private func check(_ snapshot: Snapshot, against expected: SampleExpectation) {
        #expect(snapshot.app == expected.product)
        #expect(snapshot.ended)
        #expect(snapshot.warnings.isEmpty, "\(snapshot.warnings)")
        #expect(snapshot.verdictsByType == expected.verdicts)
        for node in snapshot.retained {
            #expect(node.reasonKind == expected.retainedReason, "\(LeakReport.line(for: node))")
        }
    }

    static let samplesDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("samples")
}
