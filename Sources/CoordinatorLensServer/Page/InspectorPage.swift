import CoordinatorLens
import CoordinatorLensPage
import CoordinatorLensRendering
import Foundation
import NIOConcurrencyHelpers

/// Answers the page's requests from the sessions held in memory: pictures, models and event lists.
///
/// Called on the page's thread pool (`PageWork`), never on an event loop, so drawing a big tree never holds up a hook
/// connection.
final class InspectorPage: Sendable {
    /// An answer: status, type and body; `seq` is the last event the answer shows, sent as `X-Lens-Seq`.
    struct Response {
        var status: Int
        var contentType: String
        var body: [UInt8]
        var seq: Int?
        /// Headers beyond the usual ones (a redirect's `Location`, a `Set-Cookie`).
        var headers: [(String, String)] = []
        /// The judgement a picture or model was built from (`LiveSessions`).
        var judgement: Int?

        static func text(_ status: Int, _ message: String) -> Response {
            Response(status: status, contentType: "text/plain; charset=utf-8", body: Array((message + "\n").utf8))
        }
    }

    private struct PastKey: Hashable {
        var run: String
        var seq: Int
        var grace: Double
    }

    let sessions: LiveSessions
    /// The grace period the page starts with; each view may ask for another.
    let grace: Double
    /// How call sites are printed (`--source-root`).
    let paths: SourcePaths
    /// How the page opens a call site (`--editor-url`).
    let editorURL: String?
    /// A baseline's and a history's knowledge of leaks (`view --baseline`/`--history`), for the page's marks.
    let context: LeakContext?
    /// Replays up to an earlier event, the costly part of time travel, for the slider's back and forth. Events up to a
    /// seq never change, so these stay true.
    private let past = NIOLockedValueBox<[(key: PastKey, snapshot: Snapshot)]>([])
    private static let keptPast = 6

    init(sessions: LiveSessions, grace: Double, paths: SourcePaths = SourcePaths(), editorURL: String? = nil, context: LeakContext? = nil) {
        self.sessions = sessions
        self.editorURL = editorURL
        self.grace = grace
        self.paths = paths
        self.context = context
    }

    /// Drops the replays kept of `runs` (evicted sessions).
    func forget(_ runs: Set<String>) {
        past.withLockedValue { past in past.removeAll { runs.contains($0.key.run) } }
    }

    func respond(to route: PageRoute) -> Response {
        switch route {
        case .sessions:
            let summaries = sessions.snapshots(grace: grace).map { SessionSummary($0, context: context) }
            return json(summaries)
        case .tree(let view):
            guard let (live, snapshot) = judged(view) else { return unknownRun(view.run) }
            do {
                let svg = try SnapshotRenderer.render(paths.applied(to: snapshot), format: .svg, options: pictureOptions(view))
                return saying(live, Response(status: 200, contentType: "image/svg+xml", body: svg, seq: snapshot.lastSeq))
            } catch {
                return .text(500, "render failed: \(error)")
            }
        case .layout(let view):
            guard let (live, snapshot) = judged(view) else { return unknownRun(view.run) }
            do {
                let layout = try LayoutJSON.encode(paths.applied(to: snapshot), options: pictureOptions(view))
                return saying(live, Response(status: 200, contentType: "application/json", body: layout, seq: snapshot.lastSeq))
            } catch {
                return .text(500, "layout failed: \(error)")
            }
        case .model(let view):
            guard let (live, snapshot) = judged(view) else { return unknownRun(view.run) }
            do {
                let model = try model(of: paths.appliedKeepingPaths(to: snapshot), live: live, view: view).json()
                return saying(live, Response(status: 200, contentType: "application/json", body: model, seq: snapshot.lastSeq))
            } catch {
                return .text(500, "could not encode the answer: \(error)")
            }
        case .coordinator(let run, let id):
            guard let (log, _) = sessions.history(run: run) else { return unknownRun(run) }
            return json(id.flatMap { CoordinatorEvent.byCoordinator(in: log, paths: paths)[$0] } ?? [])
        case .compare(let query):
            return compared(query)
        case .events, .asset, .notFound:
            return .text(404, "not found")
        case .badRequest(let message):
            return .text(400, message)
        }
    }

    /// What the page's picture shows, as SVG or as a layout: the same nodes either way.
    private func pictureOptions(_ view: ViewQuery) -> RenderOptions {
        // Always laid out by CoordinatorLens: fast at any size, and a tree that grows keeps its nodes in place.
        var options = RenderOptions(showReleased: view.showReleased, largeTreeThreshold: 0, sourcePaths: paths)
        options.leaksOnly = view.leaksOnly
        options.nodeTooltips = false
        options.drawsTitleAndLegend = false
        if view.all { options.collapseThreshold = .max }
        options.revealed = view.revealed
        options.opened = view.opened
        options.aspect = view.aspect
        return options
    }

    /// `response`, saying the judgement it was built from: for the shared answers, and as `X-Lens-Judgement` for the
    /// page, which keeps the newest it has seen of a run (a summary says its judgement too).
    private func saying(_ live: LiveSnapshot, _ response: Response) -> Response {
        var response = response
        response.headers.append(("X-Lens-Judgement", String(live.judgement)))
        response.judgement = live.judgement
        return response
    }

    /// The session as `view` asks: the present as its latest judgement says, or a replay up to an earlier event.
    private func judged(_ view: ViewQuery) -> (LiveSnapshot, Snapshot)? {
        let grace = view.grace ?? self.grace
        guard let live = sessions.live(run: view.run, grace: grace) else { return nil }
        guard let seq = view.seq, let last = live.snapshot.lastSeq, seq < last else { return (live, live.snapshot) }
        let key = PastKey(run: view.run, seq: seq, grace: grace)
        if let cached = past.withLockedValue({ $0.first { $0.key == key }?.snapshot }) { return (live, cached) }
        guard let (log, _) = sessions.history(run: view.run), let snapshot = try? log.snapshot(until: .seq(seq), grace: grace, limits: sessions.aliveLimits)
        else { return nil }
        past.withLockedValue { past in
            past.append((key, snapshot))
            if past.count > Self.keptPast { past.removeFirst() }
        }
        return (live, snapshot)
    }

    private func model(of snapshot: Snapshot, live: LiveSnapshot, view: ViewQuery) -> TreeModel {
        // The kept lines as held, not copied into a log: the model needs the slider's ends and one event, and a copy of
        // a million lines took most of a model's time.
        let history = sessions.historyChunks(run: view.run)
        var model = TreeModel(
            snapshot, summary: SessionSummary(live, context: context), seq: view.seq, historySeqs: history?.chunks.seqs ?? (nil, nil),
            historyComplete: history?.complete ?? true, atEnd: view.seq == nil && (snapshot.ended || live.recorded), context: context
        )
        model.editorURL = editorURL
        model.sourceRoot = paths.root
        if let chunks = history?.chunks, let seq = snapshot.lastSeq, let record = chunks.record(seq: seq) {
            model.event = EventDescription.text(of: record, in: snapshot)
        }
        return model
    }

    /// Both sessions as their latest judgements say, as `/api/model` shows them, and diffed; A found by its run id or as the session of
    /// B's app heard from last before B.
    private func compared(_ query: CompareQuery) -> Response {
        let grace = query.grace ?? self.grace
        guard let b = sessions.live(run: query.b, grace: grace) else { return unknownRun(query.b, side: "B") }
        let a: LiveSnapshot
        if let run = query.a {
            guard let found = sessions.live(run: run, grace: grace) else { return unknownRun(run, side: "A") }
            a = found
        } else {
            let runs = sessions.runs
            let earlier = runs.firstIndex(of: query.b).map { runs[..<$0].reversed() } ?? []
            guard let found = earlier.lazy.compactMap({ self.sessions.live(run: $0, grace: grace) }).first(where: { $0.snapshot.app == b.snapshot.app })
            else {
                return .text(404, "no earlier session of \(TextSanitizer.visible(b.snapshot.app)) is held to compare \(TextSanitizer.visible(query.b)) with")
            }
            a = found
        }
        do {
            let diff = TreeDiff(paths.applied(to: a.snapshot), paths.applied(to: b.snapshot))
            return json(try RunComparison(diff))
        } catch {
            return .text(500, "render failed: \(error)")
        }
    }

    private func unknownRun(_ run: String, side: String) -> Response {
        .text(404, "\(side): no session with run id \(TextSanitizer.visible(run)) is held (it may have been evicted, or never connected)")
    }

    private func unknownRun(_ run: String) -> Response {
        .text(404, "no session with that run id is held (it may have been evicted)")
    }

    private func json(_ value: some Encodable, seq: Int? = nil) -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        do {
            return Response(status: 200, contentType: "application/json", body: Array(try encoder.encode(value)), seq: seq)
        } catch {
            return .text(500, "could not encode the answer: \(error)")
        }
    }
}
