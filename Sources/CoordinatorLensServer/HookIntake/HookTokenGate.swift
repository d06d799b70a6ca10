import NIOCore

/// The first line of a hook connection, `{"auth":"TOKEN"}` (docs/PROTOCOL.md), checked before any byte reaches a
/// session or the recording.
///
/// When `listen` wants a token, a connection without the right one is answered `{"refused":"token"}`, said in a status
/// line (one per few seconds however many come: `RefusalSummary`) and closed, and nothing it sent is kept. When it wants none, an `auth` line is taken off and the rest
/// goes on. Either way the gate then steps out of the pipeline, so it costs nothing past the first line.
final class HookTokenGate: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private let token: AccessToken?
    /// Told when the connection showed the token, so it no longer waits for a place (`ConnectionGate`).
    private let gate: ConnectionGate?
    private let summary: RefusalSummary?
    private let log: @Sendable (String) -> Void
    private var pending: ByteBuffer?
    private var decided = false
    private var refused = false

    /// A first line longer than this is no `auth` line: a token has at most a few hundred characters.
    static let maximumAuthLineBytes = 1_024

    init(token: AccessToken?, gate: ConnectionGate? = nil, summary: RefusalSummary? = nil, log: @escaping @Sendable (String) -> Void) {
        self.token = token
        self.gate = gate
        self.summary = summary
        self.log = log
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !refused else { return }
        guard !decided else { return context.fireChannelRead(data) }
        var incoming = unwrapInboundIn(data)
        if pending == nil { pending = incoming } else { pending!.writeBuffer(&incoming) }
        let view = pending!.readableBytesView
        if let newline = view.firstIndex(of: 0x0A) {
            decide(firstLine: Array(view[view.startIndex..<newline]), lineEnd: newline + 1 - view.startIndex, context)
        } else if view.count > Self.maximumAuthLineBytes {
            decide(firstLine: nil, lineEnd: 0, context)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        // A connection that closed before its first newline: without a token its bytes are a line cut short, which
        // the reader reports; with one, they are nothing.
        if !decided, token == nil, let rest = pending, rest.readableBytes > 0 { context.fireChannelRead(wrapInboundOut(rest)) }
        pending = nil
        context.fireChannelInactive()
    }

    private func decide(firstLine: [UInt8]?, lineEnd: Int, _ context: ChannelHandlerContext) {
        decided = true
        guard var rest = pending else { return }
        pending = nil
        let presented = firstLine.flatMap(Self.token(inAuthLine:))
        if let token {
            guard let presented, token.matches(presented) else { return refuse(presented == nil ? "no token" : "wrong token", context) }
            gate?.prove(context.channel)
        }
        if presented != nil { rest.moveReaderIndex(forwardBy: lineEnd) }
        if rest.readableBytes > 0 { context.fireChannelRead(wrapInboundOut(rest)) }
        context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
    }

    private func refuse(_ reason: String, _ context: ChannelHandlerContext) {
        refused = true
        let peer = context.channel.remoteAddress?.ipAddress ?? "an unknown address"
        let line = "refused a hook connection from \(peer): \(reason) (the hook needs .tcp(host:port:token:) with the token printed at start)"
        if let summary { summary.note(line, reason: "hook connections with \(reason == "no token" ? "no" : "a wrong") token") } else { log(line) }
        var answer = context.channel.allocator.buffer(capacity: 24)
        answer.writeString(#"{"refused":"token"}"# + "\n")
        let channel = context.channel
        context.writeAndFlush(NIOAny(answer)).whenComplete { _ in channel.close(promise: nil) }
    }

    /// The token of an `{"auth":"TOKEN"}` line (a carriage return before the newline allowed); nil for any other line.
    static func token(inAuthLine line: [UInt8]) -> String? {
        var line = line[...]
        if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
        let opening = Array(#"{"auth":""#.utf8)
        let closing = Array(#""}"#.utf8)
        guard line.count >= opening.count + closing.count, line.starts(with: opening), line.suffix(2).elementsEqual(closing) else {
            return nil
        }
        let value = line.dropFirst(opening.count).dropLast(closing.count)
        guard !value.contains(UInt8(ascii: "\"")), !value.contains(UInt8(ascii: "\\")) else { return nil }
        return String(decoding: value, as: UTF8.self)
    }
}
