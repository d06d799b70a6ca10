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
    private struct State {
        var room = WaitingRoom()
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
        let (number, message, replaced, waitersFull) = state.withLockedValue { state -> (Int?, String?, (any Channel)?, Bool) in
            var replaced: (any Channel)?
            let waitersFull = state.room.count < limit
            if state.room.count >= limit || state.room.waiting >= (waitingLimit ?? .max) {
                replaced = state.room.takeOldestWaiting()
                guard replaced != nil else {
                    state.refused += 1
                    defer { state.refusing = true }
                    return (nil, state.refusing ? nil : "\(kind) limit of \(limit) reached: closing new \(kind)s until one ends", nil, false)
                }
            }
            let number = state.room.add(channel, waits: waitingLimit != nil)
            state.acceptFailing = false
            return (number, nil, replaced, waitersFull)
        }
        message.map(log)
        if let replaced {
            replaced.close(promise: nil)
            // Which limit made room is what the line names: the waiting places fill long before the connection limit.
            let full =
                waitersFull
                ? "all \(waitingLimit ?? limit) places for \(kind)s waiting for a token taken"
                : "\(kind) limit of \(limit) reached (at most \(waitingLimit ?? limit) waiting for a token)"
            summary?.note(
                "\(full): closing the \(kind)s that have waited longest to make room",
                reason: "\(kind)s closed to make room, having shown no token")
        }
        return number
    }

    /// The connection showed the token: it no longer waits, and is never closed to make room.
    func prove(_ channel: any Channel) {
        state.withLockedValue { $0.room.prove(channel) }
    }

    func release(_ channel: any Channel) {
        let message = state.withLockedValue { state -> String? in
            guard state.room.remove(channel), state.refusing, state.room.count < limit else { return nil }
            defer { (state.refusing, state.refused) = (false, 0) }
            return "accepting \(kind)s again (\(state.refused) turned away)"
        }
        message.map(log)
    }

    /// Connections open now, and how many of them wait for their token (for tests).
    var counts: (open: Int, waiting: Int) {
        state.withLockedValue { ($0.room.count, $0.room.waiting) }
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
        for channel in state.withLockedValue({ $0.room.channels }) {
            try? await channel.eventLoop.submit { channel.pipeline.fireUserInboundEventTriggered(FinalAcknowledgement()) }.get()
        }
    }

    /// Closes every open connection and waits until each has let go of its session.
    func closeAll() async {
        for channel in state.withLockedValue({ $0.room.channels }) {
            try? await channel.close()
        }
    }

    /// Accepting failed (out of file descriptors, most likely); `AcceptPauseHandler` retries every second.
    func acceptFailed(_ error: any Error) {
        let first = state.withLockedValue { state in
            defer { state.acceptFailing = true }
            return !state.acceptFailing
        }
        if first { log("cannot accept connections: \(error); retrying every second, open sessions carry on") }
    }
}

/// Reports accept failures to the gate; sits after `AcceptPauseHandler` in the server channel's pipeline.
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
