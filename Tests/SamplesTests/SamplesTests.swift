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
        #expect(
            LeakReport.line(for: checkout).hasPrefix(
                "CheckoutCoordinator#10 retained: still a child of HomeCoordinator#1 (added at DeliverooTraditionalSample/HomeCoordinator.swift:"))
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

    /// Coordinators that own their screens: each product sheet swiped down is seen leaving although its screen is never
    /// freed, and the tab in the background and the screen covered by a sheet are not taken for departures.
    @Test func routerProductsThatOwnTheirScreensAreDismissedWhenTheScreenLeaves() async throws {
        let recording = FileManager.default.temporaryDirectory.appendingPathComponent("router-\(UUID().uuidString).ndjson")
        defer { try? FileManager.default.removeItem(at: recording) }
        let run = try await BuiltProduct.sample("XCoordinatorRouterSample").runAsync(["--file", recording.path], timeout: BuiltProduct.sampleTimeout)
        try #require(run.status == 0, "\(run.standardError)")
        let snapshot = try RecordedSample.snapshot(of: Data(contentsOf: recording))
        let products = snapshot.nodes.filter { $0.type == "ProductCoordinator" }
        #expect(products.count == 3)
        #expect(products.allSatisfy { $0.verdict == .retained && $0.dismissedVia == .screenLeft })
        #expect(products.allSatisfy { $0.site?.file == "XCoordinatorRouterSample/main.swift" }, "the call site comes through trigger")
        for type in ["AppCoordinator", "HomeCoordinator", "ProfileCoordinator"] {
            let node = try #require(snapshot.nodes.first { $0.type == type })
            #expect(node.doneAt == nil, "\(type) was only covered or in the background")
        }
        let check = try await BuiltProduct.coordlens.runAsync(["check", recording.path], timeout: 60)
        #expect(check.status == 1)
        #expect(check.standardOutput.components(separatedBy: "RETAINED ProductCoordinator#").count - 1 == 3)
        #expect(!check.standardOutput.contains("RETAINED HomeCoordinator"))
    }

    /// The Matrix client's shape, its screens bound through the SwiftUI modifier's stand-in: each leak says what holds
    /// it, the stack coordinator's screen named as its screen; the fixed build releases everything it let go.
    @Test func elementFlowsLeaksAreNamedWithTheirHoldersAndTheFixedBuildReleasesThem() async throws {
        let snapshot = try await RecordedSample.run("ElementFlowsSample")
        let room = try #require(snapshot.nodes.first { $0.type == "RoomScreenCoordinator" })
        #expect(room.dismissedVia == .screenFreed, "the popped view's state was freed: the SwiftUI-hosted screen left")
        let roomHolder = try #require(snapshot.heldBy[room.id]).text(target: "RoomScreenCoordinator#\(room.id)")
        #expect(roomHolder.hasPrefix("StackHost (screen of NavigationStackCoordinator#"), "\(roomHolder)")
        #expect(roomHolder.contains(".lingeringPathItems[0] (element) › NavigationModule.coordinator › RoomScreenCoordinator#"))
        let model = try #require(snapshot.nodes.first { $0.type == "RoomDetailsViewModel" })
        #expect(model.watched == true)
        #expect(model.reason?.hasPrefix("outlived RoomDetailsScreenCoordinator#") == true, "\(model.reason ?? "")")
        #expect(try #require(snapshot.heldBy[model.id]).outcome == .cycle)
        let settings = try #require(snapshot.nodes.first { $0.type == "SettingsScreenCoordinator" })
        #expect(settings.dismissedVia == .screenFreed, "the sheet swiped down freed its view")

        let fixed = try await RecordedSample.run("ElementFlowsSample", ["--fixed"])
        #expect(fixed.retained.isEmpty, "\(fixed.retained.map { LeakReport.line(for: $0) })")
        for type in ["RoomScreenCoordinator", "RoomDetailsScreenCoordinator", "RoomDetailsViewModel", "SettingsFlowCoordinator", "SettingsScreenCoordinator"] {
            #expect(fixed.nodes.first { $0.type == type }?.verdict == .released, "\(type)")
        }
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
            #expect(
                node.reasonKind == expected.retainedReasonByType[node.type] ?? expected.retainedReason, "\(LeakReport.line(for: node))")
        }
    }

    static let samplesDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("samples")
}
