import CoordinatorLens
import NIOConcurrencyHelpers
import NIOCore

/// Says connections turned away in one status line per few seconds, however many: the first of a burst at once and in
/// full, the rest counted by reason and summed up every `interval` while they go on, so a thousand wrong tokens print
/// two lines, not a thousand.
final class RefusalSummary: Sendable {
    private struct State {
        var counting = false
        var counts: [String: Int] = [:]
        /// Reasons in the order first counted, so a summary reads the same way each time.
        var order: [String] = []
    }

    private let state = NIOLockedValueBox(State())
    private let interval: Double
    private let timers: any EventLoop
    private let log: @Sendable (String) -> Void

    /// Summaries are timed on `timers`, every `interval` seconds while refusals go on.
    init(interval: Double = 5, timers: any EventLoop, log: @escaping @Sendable (String) -> Void) {
        self.interval = interval
        self.timers = timers
        self.log = log
    }

    /// One refusal: `line` is said at once when none was said within the last `interval`; otherwise it is counted under
    /// `reason` ("hook connections with a wrong token") for the next summary.
    func note(_ line: @autoclosure () -> String, reason: String) {
        let first = state.withLockedValue { state -> Bool in
            guard state.counting else {
                state.counting = true
                return true
            }
            if state.counts[reason] == nil { state.order.append(reason) }
            state.counts[reason, default: 0] += 1
            return false
        }
        guard first else { return }
        log(line())
        schedule()
    }

    /// Says what is counted now (when `listen` stops).
    func flush() {
        let summary = takeSummary(closing: true)
        summary.map(log)
    }

    private func schedule() {
        timers.scheduleTask(in: .nanoseconds(Int64(interval * 1e9))) { [self] in
            guard let summary = takeSummary(closing: false) else { return }
            log(summary)
            schedule()
        }
    }

    /// The summary of what was counted, nil when nothing was (the burst is over: the next refusal is said at once).
    private func takeSummary(closing: Bool) -> String? {
        state.withLockedValue { state -> String? in
            guard !state.counts.isEmpty else {
                state.counting = false
                return nil
            }
            defer {
                state.counts = [:]
                state.order = []
                if closing { state.counting = false }
            }
            let total = state.counts.values.reduce(0, +)
            let parts = state.order.map { "\(NumberText.grouped(state.counts[$0] ?? 0)) \($0)" }.joined(separator: ", ")
            let window = interval == interval.rounded() ? "\(Int(interval))" : "\(interval)"
            return "turned away \(NumberText.grouped(total)) more connection\(total == 1 ? "" : "s") within \(window) s: \(parts)"
        }
    }
}
