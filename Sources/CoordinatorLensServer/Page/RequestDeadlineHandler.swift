import NIOCore
import NIOHTTP1

/// Closes a page connection that has not sent a request's head (its line and headers) within `headTimeout`, or the
/// whole request within `timeout`, of connecting or of its last response: the deadlines are for the whole head and
/// request, so a client dripping a byte now and then is closed like a silent one. A browser sends its head at once, so
/// the head's deadline is short; an idle keep-alive connection is closed by it too, and the browser opens another.
/// Between a request and its response (a picture being drawn) and on an event stream there is no deadline.
final class RequestDeadlineHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    private let timeout: TimeAmount
    private let headTimeout: TimeAmount
    private var deadline: Scheduled<Void>?
    private var headDeadline: Scheduled<Void>?

    init(timeout: Double, headTimeout: Double) {
        self.timeout = .nanoseconds(Int64(max(0.001, timeout) * 1e9))
        self.headTimeout = .nanoseconds(Int64(max(0.001, min(timeout, headTimeout)) * 1e9))
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
        switch unwrapInboundIn(data) {
        case .head:
            headDeadline?.cancel()
            headDeadline = nil
        case .end:
            disarm()
        case .body:
            break
        }
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
        headDeadline = context.eventLoop.scheduleTask(in: headTimeout) { channel.close(promise: nil) }
    }

    private func disarm() {
        deadline?.cancel()
        headDeadline?.cancel()
        (deadline, headDeadline) = (nil, nil)
    }
}
