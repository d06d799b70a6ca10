import CoordinatorLens
import Foundation
import TestSupport
import Testing

/// The stranger-shaped Combine app (Tests/StrangerApps/CombineRouter), built in debug as apps embed the hook and run
/// as a real process: the retainer search its `end()` runs must survive what such an app holds (a subscriber generic
/// over its output, closures made in a generic method, a C callback, structs behind `Any` and existentials, threads
/// changing objects meanwhile) and name the field, the static or the task behind each of the app's four leaks.
@Suite struct StrangerCombineAppTests {
    static let app = BuiltProduct("StrangerCombineApp")

    /// One run of the app into a fresh recording; `environment` adds to the app's.
    struct Run {
        var process: ProcessRun
        var recording: String
        var snapshot: Snapshot

        /// The one coordinator of type `type` in the recording.
        func node(_ type: String) throws -> SnapshotNode {
            let nodes = snapshot.nodes.filter { $0.type == type }
            try #require(nodes.count == 1, "one \(type) in \(snapshot.nodes.map(\.type))")
            return nodes[0]
        }
    }

    static func run(environment: [String: String] = [:]) async throws -> Run {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("stranger-combine-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let recording = folder.appendingPathComponent("recording.ndjson").path
        let process = try await app.runAsync([recording], timeout: 60, environment: environment)
        // A signal that ends it leaves its number as the status and a backtrace on standard error.
        try #require(
            process.status == 0,
            "StrangerCombineApp exited with \(process.status) (a signal's number when one ended it): \(process.standardError.prefix(6000))"
        )
        let recorded = Recording(bytes: Array(try Data(contentsOf: URL(fileURLWithPath: recording))))
        try #require(recorded.sessions.count == 1)
        let snapshot = try recorded.sessions[0].snapshot(grace: VerdictRules.defaultGrace)
        return Run(process: process, recording: recording, snapshot: snapshot)
    }

    @Test func theSearchSurvivesTheAppAndNamesTheFieldBehindEachLeak() async throws {
        let run = try await Self.run()
        let home = try run.node("HomeFlowCoordinator")
        let composer = try run.node("ComposerCoordinator")
        let settings = try run.node("SettingsFlowCoordinator")
        #expect(composer.verdict == .retained && settings.verdict == .retained)

        // The composer: home's view model keeps the subscription whose handler took the composer strongly.
        let composerHeld = try #require(run.snapshot.heldBy[composer.id], "no held line for the composer")
        let composerChain = composerHeld.text(target: "ComposerCoordinator#\(composer.id)")
        #expect(composerHeld.outcome == .live, "\(composerChain)")
        #expect(composerHeld.steps.first?.text == "HomeFlowCoordinator#\(home.id).viewModel", "\(composerChain)")
        #expect(
            composerHeld.steps.contains { $0.holder == "HomeScreenViewModel" && $0.field.hasPrefix("cancellables[") && $0.kind == "element" },
            "the view model's cancellables: \(composerChain)"
        )
        #expect(composerHeld.steps.last?.field == "receiveValue", "the sink's closure captured it: \(composerChain)")

        // Settings: a swipe-down left its completion, which took it strongly, in the router home holds.
        let settingsHeld = try #require(run.snapshot.heldBy[settings.id], "no held line for settings")
        let settingsChain = settingsHeld.text(target: "SettingsFlowCoordinator#\(settings.id)")
        #expect(settingsHeld.outcome == .live, "\(settingsChain)")
        #expect(settingsHeld.steps.count == 2, "\(settingsChain)")
        #expect(settingsHeld.steps.first?.text == "HomeFlowCoordinator#\(home.id).router", "\(settingsChain)")
        let completion = try #require(settingsHeld.steps.last)
        #expect(completion.holder.hasPrefix("AppRouter"), "\(settingsChain)")
        // The route's key is app text: it leaves the app as its type and a hash (RetainerSearchOptions.sendsKeyText).
        #expect(completion.field.hasPrefix("completions[String#") && completion.kind == "capture", "\(settingsChain)")
        #expect(!settingsChain.contains("settings\""), "\(settingsChain)")

        // The completion closure is named from the app's symbol table, where the app wrote it.
        #expect(settingsChain.contains("(captured by closure #1 in AppRouter.trigger(_:screen:completion:))"), "\(settingsChain)")

        // The app prints what its end's search wrote, reading the label's four-field steps as a reader that knows no
        // `closures` does; `coordlens check` prints it under each leak, closures named.
        func withoutClosures(_ held: HeldBy, _ target: String) -> String {
            HeldBy(
                outcome: held.outcome, steps: held.steps.map { HeldBy.Step(holder: $0.holder, holderID: $0.holderID, field: $0.field, kind: $0.kind) },
                visited: held.visited
            ).text(target: target)
        }
        let output = run.process.standardOutput
        #expect(output.contains(withoutClosures(composerHeld, "ComposerCoordinator#\(composer.id)")), "\(output)")
        #expect(output.contains(withoutClosures(settingsHeld, "SettingsFlowCoordinator#\(settings.id)")), "\(output)")
        let check = try await BuiltProduct.coordlens.runAsync(["check", run.recording])
        #expect(check.status == 1, "\(check.standardError)")
        for (coordinator, chain) in [("ComposerCoordinator#\(composer.id)", composerChain), ("SettingsFlowCoordinator#\(settings.id)", settingsChain)] {
            #expect(check.standardOutput.contains("RETAINED \(coordinator):"), "\(check.standardOutput)")
            #expect(check.standardOutput.contains("held by: \(chain)\n"), "\(check.standardOutput)")
        }
        // Members: a static's closure took it; the search starts from the app's statics too.
        let members = try run.node("MembersCoordinator")
        let membersHeld = try #require(run.snapshot.heldBy[members.id], "no held line for members")
        let membersChain = membersHeld.text(target: "MembersCoordinator#\(members.id)")
        #expect(members.verdict == .retained, "\(membersChain)")
        #expect(membersHeld.outcome == .live, "\(membersChain)")
        #expect(membersHeld.steps.first?.text.hasPrefix("static PullToRefresh.action") == true, "\(membersChain)")
        #expect(check.standardOutput.contains("held by: \(membersChain)\n"), "\(check.standardOutput)")

        // Live location: a task nothing cancelled took it; the task is the root, named by the closure it runs.
        let location = try run.node("LocationSharingCoordinator")
        let locationHeld = try #require(run.snapshot.heldBy[location.id], "no held line for live location")
        let locationChain = locationHeld.text(target: "LocationSharingCoordinator#\(location.id)")
        #expect(location.verdict == .retained, "\(locationChain)")
        #expect(locationHeld.outcome == .live, "\(locationChain)")
        #expect(locationChain == "a Task running closure #1 in LocationSharingCoordinator.start() (capture) › LocationSharingCoordinator#\(location.id)")
        #expect(output.contains(withoutClosures(locationHeld, "LocationSharingCoordinator#\(location.id)")), "\(output)")
        #expect(check.standardOutput.contains("held by: \(locationChain)\n"), "\(check.standardOutput)")
        #expect(check.standardOutput.contains("4 retained in 1 session"), "\(check.standardOutput)")
    }

    /// The app's own logic, without the search: the four leaks it makes on purpose and nothing else.
    @Test func withTheSearchOffTheVerdictsAreTheLeaksAlone() async throws {
        let run = try await Self.run(environment: ["STRANGER_SEARCH": "off"])
        #expect(run.snapshot.heldBy.values.allSatisfy { $0.steps.isEmpty }, "no search, no chain: \(run.snapshot.heldBy)")
        let retained = run.snapshot.nodes.filter { $0.verdict == .retained }.map(\.type).sorted()
        #expect(retained == ["ComposerCoordinator", "LocationSharingCoordinator", "MembersCoordinator", "SettingsFlowCoordinator"])
        // A room closed through the router is released; search, cached, swiped away and shown again, is alive.
        #expect(try run.node("RoomCoordinator").verdict == .released)
        #expect(try run.node("SearchCoordinator").verdict == .alive)

        let check = try await BuiltProduct.coordlens.runAsync(["check", run.recording])
        #expect(check.status == 1, "\(check.standardError)")
        #expect(check.standardOutput.components(separatedBy: "RETAINED ").count == 5, "\(check.standardOutput)")
        #expect(check.standardOutput.contains("4 retained in 1 session"), "\(check.standardOutput)")
    }

    /// An app that quits with `exit` right after a leak, without `end()` and with other threads busy: the hook writes
    /// what it had queued on the way out (the whole run had come and gone within the writer's first tick, and the
    /// recording was empty), so the flows done just before are undecided rather than lost, and a step added before
    /// its onboarding flow sits under it.
    @Test func anAppThatQuitsRightAfterALeakKeepsItsRecording() async throws {
        let run = try await Self.run(environment: ["STRANGER_QUIT": "1"])
        let onboarding = try run.node("OnboardingCoordinator")
        #expect(try run.node("WelcomeStepCoordinator").parent == onboarding.id)
        #expect(try run.node("SettingsFlowCoordinator").verdict == .pending)
        #expect(try run.node("ComposerCoordinator").verdict == .pending)
        #expect(try run.node("RoomCoordinator").verdict == .released)

        let check = try await BuiltProduct.coordlens.runAsync(["check", run.recording])
        #expect(check.standardOutput.contains("the app stopped without end()"), "\(check.standardOutput)")
        #expect(check.standardOutput.contains("2 undecided in 1 session"), "\(check.standardOutput)")
    }
}
