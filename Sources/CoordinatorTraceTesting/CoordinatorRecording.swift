import CoordinatorLens
import CoordinatorTrace
import Dispatch
import Foundation

/// A tracing session kept in memory for a test: start it, run the code under test, then judge what it did.
///
/// It records through its own `Tracer` unless you hand it `Tracer.shared`, the one behind `CoordinatorTrace`.
public final class CoordinatorRecording: Sendable {
    /// The grace period tests use unless told otherwise: flows in a test deallocate at once, so waiting longer only
    /// slows down the failing ones.
    public static let defaultGrace: Double = 1

    /// The tracer this recording listens to; pass it to the code under test.
    public let tracer: Tracer
    private let sink = MemorySink()
    /// The session's start on the hook's own clock (`MonotonicClock`), read just after the session began, so verdicts
    /// err on the lenient side and agree with what the hook's retainer search counts as past its grace.
    private let startedAt: UInt64

    /// Starts a session on `tracer` that keeps its stream in memory; a session already running on it ends first.
    /// `grace` is also how long `end()` waits for finished coordinators to be freed; `options` are the hook's (the
    /// retainer search's among them: `TraceOptions(retainerSearch: RetainerSearchOptions(isEnabled: false))` turns it
    /// off, and failures then say "not searched"), their grace replaced by `grace`.
    public init(
        tracer: Tracer = Tracer(), app: String = "tests", grace: Double = CoordinatorRecording.defaultGrace, options: TraceOptions = TraceOptions()
    ) {
        self.tracer = tracer
        var options = options
        options.grace = grace
        tracer.start(app: app, sink: sink, options: options)
        startedAt = MonotonicClock.now()
    }

    /// Every coordinator recorded so far, judged now.
    public func snapshot(grace: Double = CoordinatorRecording.defaultGrace) -> Snapshot {
        tracer.flush()
        let now = Double(MonotonicClock.now() &- startedAt) / 1e9
        let recording = Recording(bytes: sink.bytes)
        guard let log = recording.sessions.last, let replayed = try? log.replay(until: .end) else {
            return SessionTree(header: SessionHeader(app: "tests", run: "empty")).snapshot(at: now, grace: grace)
        }
        return replayed.tree.snapshot(at: max(now, replayed.evaluatedAt), grace: grace)
    }

    /// Waits until no coordinator is still within its grace period (with `untilReleased`, until every one has
    /// deinited), or until `timeout` passes, and returns the verdicts then.
    public func settle(
        grace: Double = CoordinatorRecording.defaultGrace, timeout: Double? = nil, untilReleased: Bool = false
    ) -> Snapshot {
        let deadline = Date(timeIntervalSinceNow: timeout ?? grace + CoordinatorRecording.slack)
        while true {
            let snapshot = snapshot(grace: grace)
            if !CoordinatorRecording.isWaiting(snapshot, untilReleased: untilReleased) || Date() >= deadline {
                return snapshot
            }
            Thread.sleep(forTimeInterval: CoordinatorRecording.pollInterval)
        }
    }

    /// `settle` for async tests: it sleeps without holding a thread.
    public func settle(
        grace: Double = CoordinatorRecording.defaultGrace, timeout: Double? = nil, untilReleased: Bool = false
    ) async -> Snapshot {
        let deadline = Date(timeIntervalSinceNow: timeout ?? grace + CoordinatorRecording.slack)
        while true {
            let snapshot = snapshot(grace: grace)
            if !CoordinatorRecording.isWaiting(snapshot, untilReleased: untilReleased) || Date() >= deadline {
                return snapshot
            }
            try? await Task.sleep(nanoseconds: UInt64(CoordinatorRecording.pollInterval * 1e9))
        }
    }

    /// Ends the session; the recording can still be judged afterwards.
    public func end() {
        tracer.end()
    }

    /// The stream so far, in the wire format `coordlens` reads, for attaching to a failing test.
    public var ndjson: String {
        tracer.flush()
        return String(decoding: sink.bytes, as: UTF8.self)
    }

    /// Time allowed beyond the grace period for the hook's writer to deliver on a loaded machine.
    static let slack: Double = 0.5
    static let pollInterval: Double = 0.01

    private static func isWaiting(_ snapshot: Snapshot, untilReleased: Bool) -> Bool {
        snapshot.nodes.contains { $0.verdict == .pending || (untilReleased && $0.verdict == .alive) }
    }
}
