import CoordinatorLens
import Foundation
import NIOCore

/// Closes a hook connection that has sent no complete line for `timeout`, with a status line. A hook sends a
/// heartbeat line while its app is quiet (every second by default, at most every 60 s), so a connection this quiet,
/// or one dripping a line a byte at a time, is gone or is no hook. Sits before `HookConnectionHandler`, passing
/// everything on.
final class LineDeadlineHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private let seconds: Double
    private let timeout: TimeAmount
    private let name: String
    private let log: @Sendable (String) -> Void
    private var lastLine = NIODeadline.now()
    private var check: Scheduled<Void>?

    /// `name` is the connection's in status lines.
    init(timeout: Double, name: String, log: @escaping @Sendable (String) -> Void) {
        seconds = timeout
        self.timeout = .nanoseconds(Int64(max(0.001, timeout) * 1e9))
        self.name = name
        self.log = log
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { start(context) }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        stop()
    }

    func channelActive(context: ChannelHandlerContext) {
        start(context)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        stop()
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        // Only the time is noted here, never a task rescheduled: a busy connection reads thousands of times a second.
        let hasNewline = unwrapInboundIn(data).withUnsafeReadableBytes { bytes in
            bytes.baseAddress.map { memchr($0, 0x0A, bytes.count) != nil } ?? false
        }
        if hasNewline { lastLine = .now() }
        context.fireChannelRead(data)
    }

    private func start(_ context: ChannelHandlerContext) {
        guard check == nil else { return }
        lastLine = .now()
        schedule(context, at: lastLine + timeout)
    }

    private func schedule(_ context: ChannelHandlerContext, at deadline: NIODeadline) {
        check = context.eventLoop.assumeIsolated().scheduleTask(deadline: deadline) { [self] in
            let due = lastLine + timeout
            guard due <= .now() else { return schedule(context, at: due) }
            check = nil
            log("\(name) closed: no complete line for \(Seconds(seconds)) (a hook sends a heartbeat at least every 60 s)")
            context.close(promise: nil)
        }
    }

    private func stop() {
        check?.cancel()
        check = nil
    }
}
