import Foundation
import NIOCore

/// Keeps one port's connections (hook or page) under a limit so file descriptors stay free for the other port, the
/// recording and the pictures, and says once per episode when it turns connections away or the system refuses to
/// accept more.
final class ConnectionGate: @unchecked Sendable {
    let limit: Int
    /// What its status lines call a connection: "connection" for hooks, "page connection" for the page.
    private let kind: String
    private let log: @Sendable (String) -> Void
    private let lock = NSLock()
    // Guarded by `lock`.
    private var open: [ObjectIdentifier: any Channel] = [:]
    private var serial = 0
    private var refusing = false
    private var refused = 0
    private var acceptFailing = false
    private var lastRead = Date.distantPast

    init(limit: Int, kind: String = "connection", log: @escaping @Sendable (String) -> Void) {
        self.limit = limit
        self.kind = kind
        self.log = log
    }

    /// A number for a newly accepted connection that may stay, nil when it may not and the caller closes it.
    func admit(_ channel: any Channel) -> Int? {
        lock.lock()
        let admitted = open.count < limit
        var message: String?
        if admitted {
            open[ObjectIdentifier(channel)] = channel
            serial += 1
            acceptFailing = false
        } else {
            refused += 1
            if !refusing { message = "\(kind) limit of \(limit) reached: closing new \(kind)s until one ends" }
            refusing = true
        }
        let number = serial
        lock.unlock()
        message.map(log)
        return admitted ? number : nil
    }

    func release(_ channel: any Channel) {
        lock.lock()
        open[ObjectIdentifier(channel)] = nil
        var message: String?
        if refusing, open.count < limit {
            refusing = false
            message = "accepting \(kind)s again (\(refused) turned away)"
            refused = 0
        }
        lock.unlock()
        message.map(log)
    }

    /// A connection read something: `drain` waits for these to stop.
    func noteRead() {
        lock.withLock { lastRead = Date() }
    }

    /// Waits until no connection has read anything for `quiet` seconds, at most until `deadline`: on SIGTERM the
    /// lines hooks already sent (in the sockets' buffers) are read and kept before the connections close.
    func drain(quiet: Double = 0.1, by deadline: Date) async {
        while Date() < deadline {
            let idle = Date().timeIntervalSince(lock.withLock { lastRead })
            if idle >= quiet { return }
            try? await Task.sleep(nanoseconds: UInt64(max(0.01, quiet - idle) * 1e9))
        }
    }

    /// Has every connection that asked for acknowledgements told what `listen` now holds of its run.
    func acknowledgeAll() async {
        for channel in lock.withLock({ Array(open.values) }) {
            try? await channel.eventLoop.submit { channel.pipeline.fireUserInboundEventTriggered(FinalAcknowledgement()) }.get()
        }
    }

    /// Closes every open connection and waits until each has let go of its session.
    func closeAll() async {
        for channel in lock.withLock({ Array(open.values) }) {
            try? await channel.close()
        }
    }

    /// Accepting failed (out of file descriptors, most likely); NIO's `AcceptBackoffHandler` retries later.
    func acceptFailed(_ error: any Error) {
        lock.lock()
        let first = !acceptFailing
        acceptFailing = true
        lock.unlock()
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
