import CoordinatorLens
import CoordinatorLensPage
import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix

/// Pushes session summaries to every open page as Server-Sent Events: small messages saying what changed, never the
/// trees themselves (a page fetches the picture of the one session it shows).
///
/// Each summary says the judgement it comes from (`judgement`, growing), so a page keeps the newest it has heard of a
/// run, whichever way it came. A run is judged in a round when it changed, or when its judgement's deadline passed (a
/// pending coordinator turning retained with no new event): a timer on `timers` marks it due then.
///
/// Changes are coalesced: the first after a quiet moment goes out at once, later ones at most once per `interval`,
/// which grows with the time a round of judging takes, so a stream of thousands of events a second costs a few
/// rounds a second. A page that reads slowly is skipped while its connection is full (NIO's writability), then sent
/// every session anew once it drains: its queue never holds more than about one message per session. A page that
/// stays full for `stallTimeout` takes nothing and is dropped (a browser's EventSource reconnects by itself), and a
/// page arriving while every place is taken gets the place of the one full the longest, or of the oldest when none is
/// full (on a quiet inspector a page that never reads cannot be told from one that does), so pages that never read
/// cannot lock out one that does.
final class PageFeed: Sendable {
    /// Pages connected at once (`maximumClients`, at least this many); a further one takes the place of the one full
    /// the longest, or of the oldest, so pages that never read cannot hold every place.
    static let minimumClients = 64
    let maximumClients: Int
    static let pingInterval = 15.0

    private let sessions: LiveSessions
    /// A baseline's and a history's knowledge of leaks: summaries count the retained ones it does not know.
    private let context: LeakContext?
    /// Seconds a page's connection may stay full before the page is dropped.
    private let stallTimeout: Double
    private let log: @Sendable (String) -> Void
    /// Judges the changed sessions of each round and sends, in the order handed in: the server's judging lane
    /// (`ServerExecutors`), so a message sent is never older than one sent before it.
    private let judging: OrderedWork
    /// Keeps the feed's clocks (the next round, stalled pages, pings); what they start runs on the pools.
    private let timers: any EventLoop
    private struct State {
        var clients: [Int: any Channel] = [:]
        /// Since when each full page has been full.
        var fullSince: [Int: NIODeadline] = [:]
        /// The pages that missed a message while full: sent every session anew once they drain. Kept apart from
        /// `fullSince`, since a page whose connection fills while it reads missed nothing, and resending everything to
        /// it at each drain would fill it again, for ever.
        var lagging = Set<Int>()
        var nextClient = 0
        var scheduled = false
        var lastRound = NIODeadline.uptimeNanoseconds(0)
        var interval = 0.02
        var pinging = false
        /// The judgement deadlines a timer is set for, per run: one timer per run and deadline.
        var deadlines: [String: Date] = [:]

        /// Forgets page `id`; returns its channel if it was still registered.
        mutating func forget(_ id: Int) -> (any Channel)? {
            fullSince[id] = nil
            lagging.remove(id)
            return clients.removeValue(forKey: id)
        }
    }

    private let state = NIOLockedValueBox(State())

    /// A feed whose clocks run on `timers` and whose judging and sending run in `judging`, one job at a time.
    init(
        sessions: LiveSessions, context: LeakContext? = nil, stallTimeout: Double = PageLimits().feedStallTimeout,
        maximumClients: Int = PageFeed.minimumClients, timers: any EventLoop, judging: OrderedWork,
        log: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        self.maximumClients = max(1, maximumClients)
        self.sessions = sessions
        self.context = context
        self.stallTimeout = stallTimeout
        self.timers = timers
        self.log = log
        self.judging = judging
    }

    private func onJudging(_ body: @escaping @Sendable () -> Void) {
        judging.submit(body)
    }

    private func sendLater(after seconds: Double, _ body: @escaping @Sendable () -> Void) {
        let judging = self.judging
        timers.scheduleTask(in: .nanoseconds(Int64(max(0, seconds) * 1e9))) { judging.submit(body) }
    }

    /// Pages connected now.
    var clientCount: Int {
        state.withLockedValue { $0.clients.count }
    }

    /// Pages skipped at least once because their connection was full, and not yet caught up.
    var laggingCount: Int {
        state.withLockedValue { $0.lagging.count }
    }

    /// Registers a page whose response head has been written; sends it every session. With every place taken, the
    /// page full the longest, or else the oldest, is closed to make room.
    func add(_ channel: any Channel) -> Int {
        let (id, startPings, displaced) = state.withLockedValue { state in
            var displaced: (channel: any Channel, wasFull: Bool)?
            if state.clients.count >= maximumClients {
                let full = state.fullSince.min(by: { $0.value < $1.value })?.key
                if let victim = full ?? state.clients.keys.min(), let closing = state.forget(victim) {
                    displaced = (closing, full != nil)
                }
            }
            state.nextClient += 1
            state.clients[state.nextClient] = channel
            defer { state.pinging = true }
            return (state.nextClient, !state.pinging, displaced)
        }
        if startPings { schedulePing() }
        if let displaced {
            let which = displaced.wasFull ? "the one whose connection was full the longest" : "the oldest"
            log("inspector page feed: \(maximumClients) pages open; closed \(which) for a new one (a browser reconnects by itself)")
            displaced.channel.close(promise: nil)
        }
        onJudging { self.sendEverything(to: id) }
        return id
    }

    func remove(_ id: Int) {
        _ = state.withLockedValue { $0.forget(id) }
    }

    /// A page's connection is full: unless it drains within `stallTimeout`, the page is dropped.
    func filled(_ id: Int) {
        let first = state.withLockedValue { state in
            let first = state.clients[id] != nil && state.fullSince[id] == nil
            if first { state.fullSince[id] = .now() }
            return first
        }
        if first { sendLater(after: stallTimeout) { self.dropIfStalled(id) } }
    }

    private func dropIfStalled(_ id: Int) {
        // The outer optional says whether the page stalled, the inner one whether it was still registered.
        let stalled = state.withLockedValue { state -> (any Channel)?? in
            // A page that drained and filled again since has a later check of its own.
            guard let since = state.fullSince[id],
                NIODeadline.now() >= since + .nanoseconds(Int64(stallTimeout * 1e9))
            else { return nil }
            return .some(state.forget(id))
        }
        guard let channel = stalled else { return }
        log("inspector page feed: dropped a page whose connection took nothing for \(Seconds(stallTimeout)) (a browser reconnects by itself)")
        channel?.close(promise: nil)
    }

    /// A page's connection drained: if it missed messages while full, it gets every session anew.
    func drained(_ id: Int) {
        let missed = state.withLockedValue { state in
            state.fullSince[id] = nil
            return state.lagging.remove(id) != nil
        }
        if missed { onJudging { self.sendEverything(to: id) } }
    }

    /// Something changed in the sessions; cheap, called from event loops after each read.
    func changed() {
        let due = state.withLockedValue { state -> NIODeadline? in
            guard !state.scheduled else { return nil }
            state.scheduled = true
            return state.lastRound + .nanoseconds(Int64(state.interval * 1e9))
        }
        guard let due else { return }
        // A deadline already past runs at once.
        let judging = self.judging
        timers.scheduleTask(deadline: due) { judging.submit { self.round() } }
    }

    /// Sessions the refresher judged (the latest judgements, made by the one judge the feed's rounds share).
    func push(_ lives: [LiveSnapshot]) {
        guard !lives.isEmpty else { return }
        let text = lives.map(summary).joined()
        onJudging { self.broadcast(text) }
    }

    private func summary(_ live: LiveSnapshot) -> String {
        Self.message("session", SessionSummary(live, context: context))
    }

    /// Sets a timer for `judgement`'s deadline, unless one is set for it already: then the run is judged again, as
    /// its pending coordinator turns retained.
    private func watchDeadline(of judgement: SessionTable.Judgement) {
        guard let deadline = judgement.deadline else { return }
        let run = judgement.live.snapshot.run
        let fresh = state.withLockedValue { state in
            guard state.deadlines[run] != deadline else { return false }
            state.deadlines[run] = deadline
            return true
        }
        guard fresh else { return }
        let (sessions, timers) = (self.sessions, self.timers)
        let wait = max(0, deadline.timeIntervalSince(sessions.clock()))
        timers.scheduleTask(in: .nanoseconds(Int64(wait * 1e9))) {
            sessions.markDue(run: run)
            self.changed()
        }
    }

    private func round() {
        state.withLockedValue { state in
            state.scheduled = false
            state.lastRound = .now()
        }
        let started = NIODeadline.now()
        let (changed, gone) = sessions.takeChangedRuns()
        let judgements = changed.sorted().compactMap { sessions.judgement(run: $0) }
        for judgement in judgements { watchDeadline(of: judgement) }
        let summaries = judgements.map(\.live)
        let took = Double((NIODeadline.now() - started).nanoseconds) / 1e9
        state.withLockedValue { state in
            state.interval = min(1, max(0.02, took * 2))
            for run in gone { state.deadlines[run] = nil }
        }
        let text = gone.sorted().map { Self.message("gone", ["run": $0]) }.joined() + summaries.map(summary).joined()
        if !text.isEmpty { broadcast(text) }
    }

    private func sendEverything(to id: Int) {
        let summaries = sessions.latestSnapshots(grace: sessions.grace).map { SessionSummary($0, context: context) }
        guard let channel = state.withLockedValue({ $0.clients[id] }) else { return }
        send(Self.message("hello", summaries), to: id, on: channel)
    }

    private func broadcast(_ text: String) {
        let targets = state.withLockedValue { $0.clients }
        for (id, channel) in targets { send(text, to: id, on: channel) }
    }

    private func send(_ text: String, to id: Int, on channel: any Channel) {
        guard channel.isWritable else {
            state.withLockedValue { state in _ = state.clients[id].map { _ in state.lagging.insert(id) } }
            return filled(id)
        }
        let buffer = channel.allocator.buffer(string: text)
        channel.writeAndFlush(HTTPServerResponsePart.body(.byteBuffer(buffer)), promise: nil)
    }

    /// A comment line now and then: a page that vanished without closing is found when the write fails.
    private func schedulePing() {
        sendLater(after: Self.pingInterval) {
            self.broadcast(": ping\n\n")
            let any = self.state.withLockedValue { state in
                state.pinging = !state.clients.isEmpty
                return state.pinging
            }
            if any { self.schedulePing() }
        }
    }

    /// One Server-Sent Events message; JSON without newlines fits one `data:` line.
    static func message(_ event: String, _ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        let json = (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "null"
        return "event: \(event)\ndata: \(json)\n\n"
    }
}
