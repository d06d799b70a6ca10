import NIOCore
import NIOHTTP1

/// Closes a page connection that has not sent a whole request within `timeout` of connecting or of its last response:
/// the deadline is for the whole request, so a client dripping a byte now and then is closed like a silent one.
/// Between a request and its response (a picture being drawn) and on an event stream there is no deadline.
final class RequestDeadlineHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    private let timeout: TimeAmount
    private var deadline: Scheduled<Void>?

    init(timeout: Double) {
        self.timeout = .nanoseconds(Int64(max(0.001, timeout) * 1e9))
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { arm(context) }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        disarm()
    }

    func channelActive(context: ChannelHandlerContext) {
        arm(context)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        disarm()
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .end = unwrapInboundIn(data) { disarm() }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        // A response written whole: the connection waits for its next request, within the deadline again.
        if case .end = unwrapOutboundIn(data), context.channel.isActive { arm(context) }
        context.write(data, promise: promise)
    }

    private func arm(_ context: ChannelHandlerContext) {
        disarm()
        let channel = context.channel
        deadline = context.eventLoop.scheduleTask(in: timeout) { channel.close(promise: nil) }
    }

    private func disarm() {
        deadline?.cancel()
        deadline = nil
    }
}
