import CoordinatorLens
import CoordinatorLensRendering
import Foundation

/// Draws changed sessions one at a time on a thread of its own, fairly: ingestion and the refresher never wait for
/// a render, and a session with a slow picture delays another's by at most one render.
///
/// Each run has at most one snapshot waiting, the newest; the next drawn is the waiting run drawn longest ago (never
/// drawn counts as longest), the smaller tree first among equals. So no run is drawn twice while another waits.
/// A picture that took more than `slowPicture` seconds rests `restFactor` times as long before it is drawn again, so
/// a big tree that keeps changing leaves the renderer free most of the time rather than always being drawn.
final class RenderQueue: @unchecked Sendable {
    private struct Shown: Equatable {
        var version: Int
        var counts: [Verdict: Int]
        var connected: Bool
    }

    static let slowPicture = 1.0
    static let restFactor = 4.0

    private let options: ListenOptions
    private let log: @Sendable (String) -> Void
    private let condition = NSCondition()
    // Guarded by `condition`.
    private var waiting: [String: LiveSnapshot] = [:]
    private var shown: [String: Shown] = [:]
    private var turn: [String: Int] = [:]
    private var turns = 0
    private var restUntil: [String: Date] = [:]
    private var busy = false
    private var stopped = false
    /// Set once the server stops: resting pictures are drawn at once.
    private var hurry = false

    init(options: ListenOptions, log: @escaping @Sendable (String) -> Void) {
        self.options = options
        self.log = log
        let thread = Thread { [self] in drawForever() }
        thread.name = "coordlens-render"
        thread.start()
    }

    /// Queues `live` unless its run was last shown in the same state; replaces a snapshot of that run still waiting.
    func submit(_ live: LiveSnapshot) {
        let run = live.snapshot.run
        let state = Shown(version: live.version, counts: live.snapshot.counts, connected: live.connected)
        condition.lock()
        defer { condition.unlock() }
        guard shown[run] != state || waiting[run] != nil else { return }
        shown[run] = state
        waiting[run] = live
        condition.signal()
    }

    /// Forgets runs no longer held in memory, except those with a snapshot still waiting to be drawn.
    func retainOnly(_ runs: Set<String>) {
        condition.lock()
        defer { condition.unlock() }
        shown = shown.filter { runs.contains($0.key) || waiting[$0.key] != nil }
        turn = turn.filter { runs.contains($0.key) || waiting[$0.key] != nil }
        restUntil = restUntil.filter { runs.contains($0.key) || waiting[$0.key] != nil }
    }

    /// Waits until nothing is waiting or being drawn, or until `deadline`; returns whether everything was drawn.
    @discardableResult
    func drain(by deadline: Date = .distantFuture) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        hurry = true
        condition.broadcast()
        while !waiting.isEmpty || busy {
            // Foundation on Linux traps converting `.distantFuture` to a timespec.
            if deadline == .distantFuture {
                condition.wait()
            } else if !condition.wait(until: deadline) {
                return false
            }
        }
        return true
    }

    /// Stops the thread after the render in progress; what is still waiting is dropped.
    func stop() {
        condition.lock()
        stopped = true
        condition.broadcast()
        condition.unlock()
    }

    private func drawForever() {
        while true {
            condition.lock()
            var picked: (key: String, value: LiveSnapshot)?
            while !stopped {
                let now = Date()
                picked = waiting.filter { hurry || restUntil[$0.key, default: .distantPast] <= now }.min { a, b in
                    let (turnA, turnB) = (turn[a.key, default: 0], turn[b.key, default: 0])
                    return turnA != turnB ? turnA < turnB : a.value.snapshot.nodes.count < b.value.snapshot.nodes.count
                }
                if picked != nil { break }
                if let wake = waiting.keys.compactMap({ restUntil[$0] }).min() {
                    _ = condition.wait(until: wake)
                } else {
                    condition.wait()
                }
            }
            guard let next = picked, !stopped else {
                condition.unlock()
                return
            }
            waiting[next.key] = nil
            busy = true
            condition.unlock()

            let started = Date()
            var line = draw(next.value)
            let took = Date().timeIntervalSince(started)
            if took > Self.slowPicture {
                line += "; took \(Seconds(took)) to draw, so drawn again in \(Seconds(took * Self.restFactor)) at the soonest"
            }

            condition.lock()
            turns += 1
            turn[next.key] = turns
            restUntil[next.key] = took > Self.slowPicture ? Date().addingTimeInterval(took * Self.restFactor) : nil
            busy = false
            condition.broadcast()
            condition.unlock()
            log(line)
        }
    }

    /// Renders and writes one picture; returns its status line.
    private func draw(_ live: LiveSnapshot) -> String {
        let snapshot = live.snapshot
        var status = StatusLine.describe(live)
        let cap = DOTEscaping.maximumLabelCharacters
        let cut = ([snapshot.app, snapshot.run] + snapshot.nodes.flatMap { [$0.type, $0.screen ?? "", $0.reason ?? ""] })
            .filter { $0.utf8.count > cap && $0.count > cap }.count
        if cut > 0 { status += ", \(cut) names cut to \(cap) characters in the picture" }
        guard let directory = options.outputDirectory else { return status }
        let path = (directory as NSString).appendingPathComponent(FileName.forRun(live.snapshot.run) + ".svg")
        do {
            let renderOptions = RenderOptions(
                showReleased: options.showReleased, largeTreeThreshold: options.largeTreeThreshold, sourcePaths: options.sourcePaths
            )
            let svg = try SnapshotRenderer.render(options.sourcePaths.applied(to: snapshot), format: .svg, options: renderOptions)
            try Data(svg).write(to: URL(fileURLWithPath: path), options: .atomic)
            status += " → \(path)"
        } catch {
            status += " (render failed: \(TextSanitizer.visible("\(error)")))"
        }
        return status
    }
}
