import CoordinatorLens
import CoordinatorLensRendering
import CoordinatorWire
import Foundation

/// Draws changed sessions' pictures (`listen --out`) one at a time on a thread of its own (made only then), fairly: ingestion and the
/// refresher never wait for a render, and a session with a slow picture delays another's by at most one render.
/// Status lines are not its business (`StatusBoard` prints them in change order); it says only what went wrong.
///
/// Each run has at most one snapshot waiting, the newest; the next drawn is the waiting run drawn longest ago (never
/// drawn counts as longest), the smaller tree first among equals. So no run is drawn twice while another waits.
/// A picture that took more than `slowPicture` seconds rests `restFactor` times as long before it is drawn again, so
/// a big tree that keeps changing leaves the renderer free most of the time rather than always being drawn.
final class RenderQueue: Sendable {
    private struct Shown: Equatable {
        var version: Int
        var counts: [Verdict: Int]
        var connected: Bool
    }

    static let slowPicture = 1.0
    static let restFactor = 4.0

    private struct State {
        var waiting: [String: LiveSnapshot] = [:]
        var shown: [String: Shown] = [:]
        var turn: [String: Int] = [:]
        var turns = 0
        var restUntil: [String: Date] = [:]
        /// The run being drawn now, if any.
        var drawing: String?
        var stopped = false
        /// Set once the server stops: resting pictures are drawn at once.
        var hurry = false

        /// The waiting run to draw now, if any: the one drawn longest ago and not resting, the smaller tree first.
        func next(at now: Date) -> (key: String, value: LiveSnapshot)? {
            waiting.filter { hurry || restUntil[$0.key, default: .distantPast] <= now }.min { a, b in
                let (turnA, turnB) = (turn[a.key, default: 0], turn[b.key, default: 0])
                return turnA != turnB ? turnA < turnB : a.value.snapshot.nodes.count < b.value.snapshot.nodes.count
            }
        }
    }

    private let options: ListenOptions
    private let log: @Sendable (String) -> Void
    private let state = ConditionBox(State())

    init(options: ListenOptions, log: @escaping @Sendable (String) -> Void) {
        self.options = options
        self.log = log
        // Only `--out` draws pictures: without it no thread waits for one.
        if options.outputDirectory != nil { JobThread(name: "coordlens-render").enqueue { [self] in drawForever() } }
    }

    /// Queues `live` unless its run was last shown in the same state; replaces a snapshot of that run still waiting.
    func submit(_ live: LiveSnapshot) {
        let run = live.snapshot.run
        let shown = Shown(version: live.version, counts: live.snapshot.counts, connected: live.connected)
        state.withLockedValue { state in
            guard state.shown[run] != shown || state.waiting[run] != nil else { return }
            state.shown[run] = shown
            state.waiting[run] = live
        }
    }

    /// Forgets runs no longer held in memory, except those with a snapshot still waiting to be drawn.
    func retainOnly(_ runs: Set<String>) {
        state.withLockedValue { state in
            let waiting = state.waiting
            state.shown = state.shown.filter { runs.contains($0.key) || waiting[$0.key] != nil }
            state.turn = state.turn.filter { runs.contains($0.key) || waiting[$0.key] != nil }
            state.restUntil = state.restUntil.filter { runs.contains($0.key) || waiting[$0.key] != nil }
        }
    }

    /// The runs whose newest picture is not on disk yet: waiting, or being drawn.
    func unfinished() -> Set<String> {
        state.withLockedValue { state in Set(state.waiting.keys).union(state.drawing.map { [$0] } ?? []) }
    }

    /// Waits until nothing is waiting or being drawn, or until `deadline`; returns whether everything was drawn.
    @discardableResult
    func drain(by deadline: Date = .distantFuture) -> Bool {
        state.withLockedValue { $0.hurry = true }
        return state.wait { state in
            if state.waiting.isEmpty && state.drawing == nil { return .found(true) }
            return Date() < deadline ? .waiting(until: deadline) : .found(false)
        }
    }

    /// Stops the thread after the render in progress; what is still waiting is dropped.
    func stop() {
        state.withLockedValue { $0.stopped = true }
    }

    private func drawForever() {
        while true {
            let picked = state.wait { state -> ConditionBox<State>.Look<(key: String, value: LiveSnapshot)?> in
                guard !state.stopped else { return .found(nil) }
                guard let next = state.next(at: Date()) else {
                    return .waiting(until: state.waiting.keys.compactMap { state.restUntil[$0] }.min())
                }
                state.waiting[next.key] = nil
                state.drawing = next.key
                return .found(next)
            }
            guard let next = picked else { return }

            let started = Date()
            let failure = draw(next.value)
            let took = Date().timeIntervalSince(started)
            let name = StatusLine.name(app: next.value.snapshot.app, run: next.value.snapshot.run)
            var note = failure.map { "\(name): picture not written: \($0)" }
            if took > Self.slowPicture {
                note = (note ?? "\(name): picture") + " took \(Seconds(took)) to draw, so drawn again in \(Seconds(took * Self.restFactor)) at the soonest"
            }

            state.withLockedValue { state in
                state.turns += 1
                state.turn[next.key] = state.turns
                state.restUntil[next.key] = took > Self.slowPicture ? Date().addingTimeInterval(took * Self.restFactor) : nil
                state.drawing = nil
            }
            if let note { log(note) }
        }
    }

    /// Where `run`'s picture goes in `directory`.
    static func picturePath(for run: String, in directory: String) -> String {
        (directory as NSString).appendingPathComponent(FileName.forRun(run) + ".svg")
    }

    /// Renders and writes one picture; returns why it could not, or nil.
    private func draw(_ live: LiveSnapshot) -> String? {
        guard let directory = options.outputDirectory else { return nil }
        do {
            let renderOptions = RenderOptions(
                showReleased: options.showReleased, largeTreeThreshold: options.largeTreeThreshold, sourcePaths: options.sourcePaths
            )
            let svg = try SnapshotRenderer.render(options.sourcePaths.applied(to: live.snapshot), format: .svg, options: renderOptions)
            try Data(svg).write(to: URL(fileURLWithPath: Self.picturePath(for: live.snapshot.run, in: directory)), options: .atomic)
            return nil
        } catch {
            return TextSanitizer.visible("\(error)")
        }
    }
}
