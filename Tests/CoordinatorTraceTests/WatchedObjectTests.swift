import CoordinatorLens
import CoordinatorTrace
import Foundation
import Testing

/// Objects that should die with their coordinator (`Tracer.watch`): the third bug of the Matrix client's port, a
/// view model kept alive by its own sink closure after its coordinator was released, is caught with its holder, and
/// the fixed one is released; a watched object is judged only once its coordinator is done.
@Suite struct WatchedObjectTests {
    /// A subject's subscription as Combine keeps it: the sink's closure in a cancellable the subscriber stores.
    final class Cancellable {
        let handler: (String) -> Void
        init(_ handler: @escaping (String) -> Void) { self.handler = handler }
    }

    final class RoomProxy {}

    /// A view model that subscribes to its own actions; `weakly` is the fix (`[weak self]`).
    final class RoomScreenViewModel {
        let room = RoomProxy()
        var cancellables: [Cancellable] = []
        var title = ""

        init(weakly: Bool) {
            if weakly {
                cancellables.append(Cancellable { [weak self] action in self?.title = action })
            } else {
                cancellables.append(Cancellable { action in self.title = action })
            }
        }
    }

    final class RoomScreenCoordinator {
        var viewModel: RoomScreenViewModel?
    }

    final class AppCoordinator {
        var children: [AnyObject] = []
    }

    /// App › Room, Room's view model watched with it; Room is removed and let go, then the session ends.
    private func run(weakly: Bool) throws -> (snapshot: Snapshot, log: SessionLog) {
        let sink = MemorySink()
        let tracer = Tracer()
        tracer.start(app: "Rooms", sink: sink, options: TraceOptions(grace: 0.05))
        let app = AppCoordinator()
        tracer.added(app, to: nil)
        var viewModel: RoomScreenViewModel? = RoomScreenViewModel(weakly: weakly)
        do {
            let room = RoomScreenCoordinator()
            room.viewModel = viewModel
            app.children.append(room)
            tracer.added(room, to: app)
            tracer.watch(viewModel!, belongsTo: room)
            tracer.removed(room, from: app)
            app.children.removeAll()
        }
        viewModel = nil
        tracer.end()
        withExtendedLifetime(app) {}
        let log = try session(from: sink)
        return (try log.snapshot(grace: 0.05), log)
    }

    @Test func aViewModelKeptByItsOwnSinkIsRetainedWithItsHolderAfterItsCoordinatorWasReleased() throws {
        let (snapshot, log) = try run(weakly: false)
        let room = try #require(snapshot.nodes.first { $0.type.hasSuffix("RoomScreenCoordinator") })
        #expect(room.verdict == .released)
        let model = try #require(snapshot.nodes.first { $0.type.hasSuffix("RoomScreenViewModel") })
        #expect(model.watched == true)
        #expect(model.parent == room.id, "drawn beside (under) its coordinator")
        #expect(model.verdict == .retained)
        #expect(model.reasonKind == .outlivedOwner)
        let reason = try #require(model.reason)
        let held = try #require(snapshot.heldBy[model.id])
        #expect(reason.hasPrefix("outlived RoomScreenCoordinator#\(room.id), which it should have died with"), "\(reason)")
        #if RetainerSearch
        #expect(reason.hasPrefix("outlived RoomScreenCoordinator#\(room.id), which it should have died with; held by "), "\(reason)")
        #expect(reason.contains("in a cycle"), "its own sink holds it: \(reason)")
        #expect(held.outcome == .cycle)
        #expect(held.steps.contains { $0.field.contains("cancellables") }, "\(held.steps.map(\.text))")
        #else
        #expect(held.outcome == .notSearched)
        #endif
        let watch = try #require(records(log).first { if case .watch = $0.event { true } else { false } })
        #expect(watch.site?.file.hasSuffix("WatchedObjectTests.swift") == true, "the call site is the caller's")

        let result = CheckResult(grace: 0.05, sessions: [SessionCheck(source: "rooms.ndjson", snapshot: snapshot, atEnd: true)])
        #expect(result.retained == 1)
        let text = LeakReport.text(for: result.sessions[0])
        #expect(text.contains("RETAINED RoomScreenViewModel#\(model.id)"), "\(text)")
        let json = CheckJSONReport.json(for: result)
        #expect(json.contains(#""watched":true"#), "\(json)")
        #expect(json.contains(#""reasonKind":"outlived-owner""#), "\(json)")
    }

    @Test func theFixedViewModelIsReleased() throws {
        let (snapshot, _) = try run(weakly: true)
        let model = try #require(snapshot.nodes.first { $0.type.hasSuffix("RoomScreenViewModel") })
        #expect(model.watched == true)
        #expect(model.verdict == .released)
        #expect(snapshot.nodes.allSatisfy { $0.verdict != .retained })
    }

    /// Judged only once its coordinator is done: alive while that one is in use, whoever else holds it; pending, then
    /// retained, after it is dismissed; and in use again when its coordinator is shown again.
    @Test func aWatchedObjectFollowsItsCoordinatorsLife() throws {
        let lines = [
            #"{"event":"session","v":1,"app":"Rooms","run":"r1"}"#,
            #"{"seq":1,"t":0,"event":"add","id":1,"type":"AppCoordinator"}"#,
            #"{"seq":2,"t":0,"event":"add","id":2,"type":"RoomScreenCoordinator","parent":1}"#,
            #"{"seq":3,"t":0.1,"event":"watch","id":3,"type":"RoomScreenViewModel","parent":2}"#,
            #"{"seq":4,"t":1,"event":"dismiss","id":2}"#,
            #"{"seq":5,"t":2,"event":"bind","id":2,"screen":"RoomScreen"}"#,
            #"{"seq":6,"t":3,"event":"dismiss","id":2}"#,
            #"{"seq":7,"t":3.5,"event":"deinit","id":2}"#,
        ]
        let log = try #require(Recording(bytes: Array((lines.joined(separator: "\n") + "\n").utf8)).sessions.first)
        #expect(try log.snapshot(until: .time(0.5), grace: 1).node(3)?.verdict == .alive)
        #expect(try log.snapshot(until: .time(1.5), grace: 1).node(3)?.verdict == .pending)
        #expect(try log.snapshot(until: .time(2.5), grace: 0.1).node(3)?.verdict == .alive, "shown again with its coordinator")
        let kept = try #require(try log.snapshot(until: .time(3.4), grace: 0.1).node(3))
        #expect(kept.verdict == .retained)
        #expect(kept.reason == "kept with RoomScreenCoordinator#2, which is done but still alive")
        #expect(kept.dismissedVia == .withOwner)
        let outlived = try #require(try log.snapshot(until: .time(5), grace: 1).node(3))
        #expect(outlived.reason == "outlived RoomScreenCoordinator#2, which it should have died with")
        #expect(outlived.reasonKind == .outlivedOwner)
        #expect(try log.snapshot().warnings.isEmpty)
    }
}
