import CoordinatorLens
import CoordinatorLensPage
import Dispatch
import Foundation
import NIOCore
import NIOHTTP1

/// Pushes session summaries to every open page as Server-Sent Events: small messages saying what changed, never the
/// trees themselves (a page fetches the picture of the one session it shows).
///
/// Changes are coalesced: the first after a quiet moment goes out at once, later ones at most once per `interval`,
/// which grows with the time a round of judging takes, so a stream of thousands of events a second costs a few
/// rounds a second. A page that reads slowly is skipped while its connection is full (NIO's writability), then sent
/// every session anew once it drains: its queue never holds more than about one message per session. A page that
/// stays full for `stallTimeout` takes nothing and is dropped (a browser's EventSource reconnects by itself), and a
/// page arriving while every place is taken gets the place of the one full the longest, or of the oldest when none is
/// full (on a quiet inspector a page that never reads cannot be told from one that does), so pages that never read
/// cannot lock out one that does.
final class PageFeed: @unchecked Sendable {
    /// Pages connected at once; a further one takes the place of the one full the longest, or of the oldest, so
    /// pages that never read cannot hold every place.
    static let maximumClients = 64
    static let pingInterval = 15.0

    private let sessions: LiveSessions
    private let grace: Double
    /// Seconds a page's connection may stay full before the page is dropped.
    private let stallTimeout: Double
    private let log: @Sendable (String) -> Void
    /// Sends, in order; it never judges a tree, so a page that connects is answered while a big session is judged.
    private let queue = DispatchQueue(label: "coordlens-page-feed")
    /// Judges the changed sessions of each round, then hands the messages to `queue`.
    private let judging = DispatchQueue(label: "coordlens-page-feed-judging")
    private let lock = NSLock()
    // Guarded by `lock`.
    private var clients: [Int: any Channel] = [:]
    /// Since when each full page has been full.
    private var fullSince: [Int: DispatchTime] = [:]
    /// The pages that missed a message while full: sent every session anew once they drain. Kept apart from
    /// `fullSince`, since a page whose connection fills while it reads missed nothing, and resending everything to it
    /// at each drain would fill it again, for ever.
    private var lagging = Set<Int>()
    private var nextClient = 0
    private var scheduled = false
    private var lastRound = DispatchTime(uptimeNanoseconds: 0)
    private var interval = 0.02
    private var pinging = false

    init(
        sessions: LiveSessions, grace: Double, stallTimeout: Double = PageLimits().feedStallTimeout,
        log: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        self.sessions = sessions
        self.grace = grace
        self.stallTimeout = stallTimeout
        self.log = log
    }

    /// Pages connected now.
    var clientCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return clients.count
    }

    /// Pages skipped at least once because their connection was full, and not yet caught up.
    var laggingCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return lagging.count
    }

    /// Registers a page whose response head has been written; sends it every session. With every place taken, the
    /// page full the longest, or else the oldest, is closed to make room.
    func add(_ channel: any Channel) -> Int {
        lock.lock()
        var displaced: (channel: any Channel, wasFull: Bool)?
        if clients.count >= Self.maximumClients {
            let full = fullSince.min(by: { $0.value < $1.value })?.key
            if let victim = full ?? clients.keys.min(), let closing = clients.removeValue(forKey: victim) {
                displaced = (closing, full != nil)
                fullSince[victim] = nil
                lagging.remove(victim)
            }
        }
        nextClient += 1
        let id = nextClient
        clients[id] = channel
        let startPings = !pinging
        pinging = true
        lock.unlock()
        if startPings { schedulePing() }
        if let displaced {
            let which = displaced.wasFull ? "the one whose connection was full the longest" : "the oldest"
            log("inspector page feed: \(Self.maximumClients) pages open; closed \(which) for a new one (a browser reconnects by itself)")
            displaced.channel.close(promise: nil)
        }
        queue.async { self.sendEverything(to: id) }
        return id
    }

    func remove(_ id: Int) {
        lock.lock()
        clients[id] = nil
        fullSince[id] = nil
        lagging.remove(id)
        lock.unlock()
    }

    /// A page's connection is full: unless it drains within `stallTimeout`, the page is dropped.
    func filled(_ id: Int) {
        lock.lock()
        let first = clients[id] != nil && fullSince[id] == nil
        if first { fullSince[id] = .now() }
        lock.unlock()
        if first { queue.asyncAfter(deadline: .now() + stallTimeout) { self.dropIfStalled(id) } }
    }

    private func dropIfStalled(_ id: Int) {
        lock.lock()
        // A page that drained and filled again since has a later check of its own.
        guard let since = fullSince[id],
            DispatchTime.now().uptimeNanoseconds >= since.uptimeNanoseconds + UInt64(stallTimeout * 1e9)
        else {
            lock.unlock()
            return
        }
        let channel = clients.removeValue(forKey: id)
        fullSince[id] = nil
        lagging.remove(id)
        lock.unlock()
        log("inspector page feed: dropped a page whose connection took nothing for \(Seconds(stallTimeout)) (a browser reconnects by itself)")
        channel?.close(promise: nil)
    }

    /// A page's connection drained: if it missed messages while full, it gets every session anew.
    func drained(_ id: Int) {
        lock.lock()
        fullSince[id] = nil
        let missed = lagging.remove(id) != nil
        lock.unlock()
        if missed { queue.async { self.sendEverything(to: id) } }
    }

    /// Something changed in the sessions; cheap, called from event loops after each read.
    func changed() {
        lock.lock()
        guard !scheduled else {
            lock.unlock()
            return
        }
        scheduled = true
        let due = lastRound.uptimeNanoseconds + UInt64(interval * 1e9)
        let now = DispatchTime.now().uptimeNanoseconds
        lock.unlock()
        judging.asyncAfter(deadline: DispatchTime(uptimeNanoseconds: max(now, due))) { self.round() }
    }

    /// Sessions the refresher judged, for example because a pending coordinator's grace ran out while all was quiet.
    func push(_ lives: [LiveSnapshot]) {
        guard !lives.isEmpty else { return }
        let text = lives.map { Self.message("session", SessionSummary($0)) }.joined()
        queue.async { self.broadcast(text) }
    }

    private func round() {
        lock.lock()
        scheduled = false
        lastRound = .now()
        lock.unlock()
        let started = DispatchTime.now().uptimeNanoseconds
        let (changed, gone) = sessions.takeChangedRuns()
        var text = gone.sorted().map { Self.message("gone", ["run": $0]) }.joined()
        for run in changed.sorted() {
            if let live = sessions.live(run: run, grace: grace) { text += Self.message("session", SessionSummary(live)) }
        }
        let took = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        lock.lock()
        interval = min(1, max(0.02, took * 2))
        lock.unlock()
        if !text.isEmpty { queue.async { [text] in self.broadcast(text) } }
    }

    private func sendEverything(to id: Int) {
        let summaries = sessions.latestSnapshots(grace: grace).map(SessionSummary.init)
        lock.lock()
        let channel = clients[id]
        lock.unlock()
        guard let channel else { return }
        send(Self.message("hello", summaries), to: id, on: channel)
    }

    private func broadcast(_ text: String) {
        lock.lock()
        let targets = clients
        lock.unlock()
        for (id, channel) in targets { send(text, to: id, on: channel) }
    }

    private func send(_ text: String, to id: Int, on channel: any Channel) {
        guard channel.isWritable else {
            lock.withLock { _ = clients[id].map { _ in lagging.insert(id) } }
            return filled(id)
        }
        let buffer = channel.allocator.buffer(string: text)
        channel.writeAndFlush(HTTPServerResponsePart.body(.byteBuffer(buffer)), promise: nil)
    }

    /// A comment line now and then: a page that vanished without closing is found when the write fails.
    private func schedulePing() {
        queue.asyncAfter(deadline: .now() + Self.pingInterval) {
            self.broadcast(": ping\n\n")
            self.lock.lock()
            let any = !self.clients.isEmpty
            self.pinging = any
            self.lock.unlock()
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
