import Foundation
import NIOConcurrencyHelpers
import NIOCore

/// Keeps one port's connections (hook or page) under a limit so file descriptors stay free for the other port, the
/// recording and the pictures, and says once per episode when it turns connections away or the system refuses to
/// accept more.
final class ConnectionGate: Sendable {
    private struct State {
        var open: [ObjectIdentifier: any Channel] = [:]
        var serial = 0
        var refusing = false
        var refused = 0
        var acceptFailing = false
        var lastRead = Date.distantPast
    }

    let limit: Int
    /// What its status lines call a connection: "connection" for hooks, "page connection" for the page.
    private let kind: String
    private let log: @Sendable (String) -> Void
    private let state = NIOLockedValueBox(State())

    init(limit: Int, kind: String = "connection", log: @escaping @Sendable (String) -> Void) {
        self.limit = limit
        self.kind = kind
        self.log = log
    }

    /// A number for a newly accepted connection that may stay, nil when it may not and the caller closes it.
    func admit(_ channel: any Channel) -> Int? {
        let (number, message) = state.withLockedValue { state -> (Int?, String?) in
            guard state.open.count < limit else {
                state.refused += 1
                defer { state.refusing = true }
                return (nil, state.refusing ? nil : "\(kind) limit of \(limit) reached: closing new \(kind)s until one ends")
            }
            state.open[ObjectIdentifier(channel)] = channel
            state.serial += 1
            state.acceptFailing = false
            return (state.serial, nil)
        }
        message.map(log)
        return number
    }

    func release(_ channel: any Channel) {
        let message = state.withLockedValue { state -> String? in
            state.open[ObjectIdentifier(channel)] = nil
            guard state.refusing, state.open.count < limit else { return nil }
            defer { (state.refusing, state.refused) = (false, 0) }
            return "accepting \(kind)s again (\(state.refused) turned away)"
        }
        message.map(log)
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
        for channel in state.withLockedValue({ Array($0.open.values) }) {
            try? await channel.eventLoop.submit { channel.pipeline.fireUserInboundEventTriggered(FinalAcknowledgement()) }.get()
        }
    }

    /// Closes every open connection and waits until each has let go of its session.
    func closeAll() async {
        for channel in state.withLockedValue({ Array($0.open.values) }) {
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
