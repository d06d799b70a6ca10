import Foundation
import NIOConcurrencyHelpers
import NIOCore

/// Keeps one port's connections (hook or page) under a limit so file descriptors stay free for the other port, the
/// recording and the pictures, and says once per episode when it turns connections away or the system refuses to
/// accept more.
///
/// With a `waitingLimit` (hooks, when `listen` wants a token) a connection *waits* until it shows the token; at most
/// `waitingLimit` wait at once, and a new connection that finds either limit reached takes the place of the one that has
/// waited longest, which is closed: clients without the token, however many connections they open and hold silent,
/// never keep an app that has it from connecting (as `PageGate` does for the page). Only when every connection has
/// shown the token is a new one turned away.
final class ConnectionGate: Sendable {
    private struct Entry {
        let channel: any Channel
        let serial: Int
        var proven: Bool
    }

    private struct State {
        var open: [ObjectIdentifier: Entry] = [:]
        /// Waiting connections by age, oldest first; entries that no longer wait are skipped when met.
        var queue = CircularBuffer<(id: ObjectIdentifier, serial: Int)>()
        var waiting = 0
        var serial = 0
        var refusing = false
        var refused = 0
        var acceptFailing = false
        var lastRead = Date.distantPast
    }

    let limit: Int
    /// Connections that may wait for their token at once; nil: none waits, each is taken as it comes.
    let waitingLimit: Int?
    /// What its status lines call a connection: "connection" for hooks, "page connection" for the page.
    private let kind: String
    private let summary: RefusalSummary?
    private let log: @Sendable (String) -> Void
    private let state = NIOLockedValueBox(State())

    /// `summary` says the connections closed to make room; needed with a `waitingLimit`.
    init(
        limit: Int, waitingLimit: Int? = nil, kind: String = "connection", summary: RefusalSummary? = nil, log: @escaping @Sendable (String) -> Void
    ) {
        self.limit = max(1, limit)
        self.waitingLimit = waitingLimit.map { max(1, min(limit, $0)) }
        self.kind = kind
        self.summary = summary
        self.log = log
    }

    /// A number for a newly accepted connection that may stay, nil when it may not and the caller closes it; with a
    /// `waitingLimit`, makes room by closing the connection that has waited longest for its token.
    func admit(_ channel: any Channel) -> Int? {
        let waitingLimit = self.waitingLimit
        let (number, message, replaced) = state.withLockedValue { state -> (Int?, String?, (any Channel)?) in
            var replaced: (any Channel)?
            if state.open.count >= limit || state.waiting >= (waitingLimit ?? .max) {
                replaced = Self.takeOldestWaiting(&state)
                guard replaced != nil else {
                    state.refused += 1
                    defer { state.refusing = true }
                    return (nil, state.refusing ? nil : "\(kind) limit of \(limit) reached: closing new \(kind)s until one ends", nil)
                }
            }
            state.serial += 1
            let waits = waitingLimit != nil
            state.open[ObjectIdentifier(channel)] = Entry(channel: channel, serial: state.serial, proven: !waits)
            if waits {
                state.queue.append((ObjectIdentifier(channel), state.serial))
                state.waiting += 1
                if state.queue.count > 2 * state.open.count + 64 { Self.compact(&state) }
            }
            state.acceptFailing = false
            return (state.serial, nil, replaced)
        }
        message.map(log)
        if let replaced {
            replaced.close(promise: nil)
            summary?.note(
                "\(kind) limit of \(limit) reached (at most \(waitingLimit ?? limit) waiting for a token): closing the \(kind)s that have waited longest to make room",
                reason: "\(kind)s closed to make room, having shown no token")
        }
        return number
    }

    /// The connection showed the token: it no longer waits, and is never closed to make room.
    func prove(_ channel: any Channel) {
        state.withLockedValue { state in
            let id = ObjectIdentifier(channel)
            guard let entry = state.open[id], !entry.proven else { return }
            state.open[id]!.proven = true
            state.waiting -= 1
        }
    }

    func release(_ channel: any Channel) {
        let message = state.withLockedValue { state -> String? in
            guard let entry = state.open.removeValue(forKey: ObjectIdentifier(channel)) else { return nil }
            if !entry.proven { state.waiting -= 1 }
            guard state.refusing, state.open.count < limit else { return nil }
            defer { (state.refusing, state.refused) = (false, 0) }
            return "accepting \(kind)s again (\(state.refused) turned away)"
        }
        message.map(log)
    }

    /// Connections open now, and how many of them wait for their token (for tests).
    var counts: (open: Int, waiting: Int) {
        state.withLockedValue { ($0.open.count, $0.waiting) }
    }

    /// A connection read something: `drain` waits for these to stop.
    func noteRead() {
        state.withLockedValue { $0.lastRead = Date() }
    }

    /// Waits until no connection has read anything for `quiet` seconds, at most until `deadline`: on SIGTERM the
    /// lines hooks already sent (in the sockets' buffers) are read and kept before the connections close.
    func drain(quiet: Double = 0.1, by deadline: Date) async {
        while Date() < deadline {
            let idle = Date().timeIntervalSince(state.withLockedValue { $0.lastRead })
            if idle >= quiet { return }
            try? await Task.sleep(nanoseconds: UInt64(max(0.01, quiet - idle) * 1e9))
        }
    }

    /// Has every connection that asked for acknowledgements told what `listen` now holds of its run.
    func acknowledgeAll() async {
        for channel in state.withLockedValue({ $0.open.values.map(\.channel) }) {
            try? await channel.eventLoop.submit { channel.pipeline.fireUserInboundEventTriggered(FinalAcknowledgement()) }.get()
        }
    }

    /// Closes every open connection and waits until each has let go of its session.
    func closeAll() async {
        for channel in state.withLockedValue({ $0.open.values.map(\.channel) }) {
            try? await channel.close()
        }
    }

    /// Accepting failed (out of file descriptors, most likely); NIO's `AcceptBackoffHandler` retries later.
    func acceptFailed(_ error: any Error) {
        let first = state.withLockedValue { state in
            defer { state.acceptFailing = true }
            return !state.acceptFailing
        }
        if first { log("cannot accept connections: \(error); retrying every second, open sessions carry on") }
    }

    /// Takes the connection that has waited longest out of the gate; nil when none waits.
    private static func takeOldestWaiting(_ state: inout State) -> (any Channel)? {
        while let (id, serial) = state.queue.popFirst() {
            guard let entry = state.open[id], entry.serial == serial, !entry.proven else { continue }
            state.open[id] = nil
            state.waiting -= 1
            return entry.channel
        }
        return nil
    }

    /// Drops queue entries of connections that no longer wait, so the queue stays as long as the gate is full.
    private static func compact(_ state: inout State) {
        var kept = CircularBuffer<(id: ObjectIdentifier, serial: Int)>(initialCapacity: state.waiting + 16)
        for item in state.queue {
            if let entry = state.open[item.id], entry.serial == item.serial, !entry.proven { kept.append(item) }
        }
        state.queue = kept
    }
}

/// Reports accept failures to the gate; sits after `AcceptBackoffHandler` in the server channel's pipeline.
final class AcceptFailureHandler: ChannelInboundHandler, Sendable {
    typealias InboundIn = any Channel
    private let gate: ConnectionGate

    init(gate: ConnectionGate) {
        self.gate = gate
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if error is IOError { gate.acceptFailed(error) }
    }
}

/// Closes a connection turned away by the gate as soon as it is set up.
final class RefusedConnectionHandler: ChannelInboundHandler, Sendable {
    typealias InboundIn = ByteBuffer

    func channelActive(context: ChannelHandlerContext) {
        context.close(promise: nil)
    }
}
