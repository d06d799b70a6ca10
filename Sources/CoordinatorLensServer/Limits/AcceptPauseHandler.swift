import NIOCore

/// Stops a listening channel accepting for `pause` after accept fails (out of file descriptors, most likely), then tries
/// once more; sits first in the server channel's pipeline and passes the error on.
///
/// NIO's `AcceptBackoffHandler` holds the next read back, but a read that fails on its very first accept leaves the
/// channel's read pending and the socket registered: with connections waiting in the kernel's queue, level-triggered
/// epoll reports it readable on every turn and the loop spins on `accept` → `EMFILE` until a descriptor frees (a whole
/// core, from the first retry on). Turning `autoRead` off takes the socket out of the poll set, whatever the channel's
/// read state; turning it on again is the retry, and a retry that fails turns it off again.
final class AcceptPauseHandler: ChannelInboundHandler {
    typealias InboundIn = any Channel

    private let pause: TimeAmount
    private var retry: Scheduled<Void>?

    init(pause: TimeAmount = .seconds(1)) {
        self.pause = pause
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if error is IOError, retry == nil {
            let channel = context.channel
            try? channel.syncOptions?.setOption(.autoRead, value: false)
            let handler = NIOLoopBound(self, eventLoop: context.eventLoop)
            retry = context.eventLoop.scheduleTask(in: pause) {
                handler.value.retry = nil
                try? channel.syncOptions?.setOption(.autoRead, value: true)
            }
        }
        context.fireErrorCaught(error)
    }

    func channelInactive(context: ChannelHandlerContext) {
        retry?.cancel()
        retry = nil
        context.fireChannelInactive()
    }
}
