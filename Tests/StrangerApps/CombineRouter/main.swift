import CoordinatorTrace
import Foundation

// A messaging app in the style of large open-source ones (flow coordinators, Combine view models, a generic router),
// driven through one session as a UI test would and recorded to the file named by the first argument. Four flows leak
// on purpose: the composer (home's view model keeps the subscription whose handler took it), settings (a swipe-down
// leaves its completion in the router), members (a static refresh action took it) and live location (a task nothing
// cancelled took it). STRANGER_SEARCH=off turns the hook's retainer search off, to check the app's
// own verdicts. STRANGER_QUIT=1 quits with `exit` right after the settings leak and an onboarding flow whose first step
// is added before the flow itself, without `end()`, loaders busy. Prints each `held` line of the recording as a
// chain, one per line.
guard CommandLine.arguments.count == 2 else {
    FileHandle.standardError.write(Data("usage: StrangerCombineApp RECORDING.ndjson\n".utf8))
    exit(2)
}
let recordingPath = CommandLine.arguments[1]
let searchesRetainers = ProcessInfo.processInfo.environment["STRANGER_SEARCH"] != "off"
Tracer.shared.start(
    app: "StrangerCombineApp", sink: .file(recordingPath),
    // A command-line program: its main thread draws no UI, so `end()` may wait out the whole grace there.
    options: TraceOptions(retainerSearch: RetainerSearchOptions(isEnabled: searchesRetainers), mainThreadEndBudget: 10)
)

let app = AppCoordinator()
app.start()
let home = app.tabBar!.home

/// The one child of `parent` of type `type`: the script taps through screens it did not make.
func child<Child: BaseCoordinator>(_ type: Child.Type, of parent: BaseCoordinator) -> Child {
    parent.childCoordinators.lazy.compactMap { $0 as? Child }.first!
}

home.viewModel.userTapped(.openRoom(7))
child(RoomCoordinator.self, of: home).close()  // Back.
home.viewModel.unreadCount = 3

home.viewModel.userTapped(.compose)
home.viewModel.userTapped(.mention("grace"))
child(ComposerCoordinator.self, of: home).close()  // Send.

home.viewModel.userTapped(.settings)
home.router.presentedSheetWasSwipedDown()
app.environment.lastSyncError = SyncError(code: 503, message: "homeserver unavailable", retryAfter: 5)

if ProcessInfo.processInfo.environment["STRANGER_QUIT"] == "1" {
    // Children before their parent: the onboarding flow fills its first step before the app shows it.
    final class OnboardingCoordinator: BaseCoordinator {}
    final class WelcomeStepCoordinator: BaseCoordinator {}
    let onboarding = OnboardingCoordinator()
    onboarding.addChild(WelcomeStepCoordinator())
    app.addChild(onboarding)
    let loaders = CacheLoaders(app.environment.thumbnails)
    withExtendedLifetime(loaders) { exit(0) }
}

// Members: Back closes it, but the refresh control's static action still holds it.
home.viewModel.userTapped(.members)
child(MembersCoordinator.self, of: home).close()

// Live location: closed, but its updates task runs on and keeps it.
home.viewModel.userTapped(.shareLocation)
child(LocationSharingCoordinator.self, of: home).close()

home.viewModel.userTapped(.search)
home.search.userTappedCancel()
home.viewModel.userTapped(.search)
app.tabBar!.profile.viewModel.displayName.send("Ada Lovelace")
app.tabBar!.profile.viewModel.badgeCount.send(Int(app.environment.badgeClamp(120)))

// Image loading goes on while the hook ends: its search walks a cache that other threads are changing.
let loaders = CacheLoaders(app.environment.thumbnails)
Tracer.shared.end()
loaders.stop()

// `Holder#id.field (kind) › … › Type#id`, as RetainerPath's description and `coordlens check` spell a chain.
let lines = (try? String(contentsOfFile: recordingPath, encoding: .utf8))?.split(separator: "\n") ?? []
let events = lines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
var types: [Int: String] = [:]
for event in events where event["event"] as? String == "add" {
    if let id = event["id"] as? Int, let type = event["type"] as? String { types[id] = type }
}
for held in events where held["event"] as? String == "held" {
    let target = "\(types[held["id"] as? Int ?? 0] ?? "?")#\(held["id"] as? Int ?? 0)"
    let steps = (held["label"] as? String ?? "").split(separator: "\u{1E}").map { step in
        let fields = step.split(separator: "\u{1F}", omittingEmptySubsequences: false)
        guard fields.count == 4 else { return String(step) }
        let holder = fields[1].isEmpty ? fields[0] : "\(fields[0])#\(fields[1])"
        return holder + (fields[2].isEmpty ? "" : ".\(fields[2])") + (fields[3] == "property" ? "" : " (\(fields[3]))")
    }
    let chain = steps.isEmpty ? "" : ": " + (steps + [target]).joined(separator: " › ")
    print("held \(target) via \(held["via"] as? String ?? "?")\(chain)")
}
