import CoordinatorLens
import NIOCore

/// Reads one hook connection: cuts the bytes into lines, decodes them, and feeds its session's live tree.
final class HookConnectionHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    private let sessions: LiveSessions
    private let recorder: StreamRecorder?
    private var splitter = LineSplitter()
    private var run: String?
    private var headerLine: [UInt8] = []

    init(sessions: LiveSessions, recorder: StreamRecorder?) {
        self.sessions = sessions
        self.recorder = recorder
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let buffer = unwrapInboundIn(data)
        buffer.withUnsafeReadableBytes { bytes in
            splitter.feed(bytes) { line, number in take(line, number: number, remote: context.remoteAddress) }
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        splitter.finish { line, number in take(line, number: number, remote: context.remoteAddress) }
        if let run { sessions.close(run: run) }
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }

    private func take(_ line: UnsafeBufferPointer<UInt8>, number: Int, remote: SocketAddress?) {
        let decoded = EventDecoder.decode(line, lineNumber: number)
        switch decoded {
        case .blank:
            return
        case .session(let header, _):
            if let run, run != header.run { sessions.close(run: run) }
            if run != header.run { sessions.open(header) }
            run = header.run
            headerLine = Array(line)
        case .record(let record):
            sessions.apply(record, run: currentRun(line: number, remote: remote))
        case .malformed(let diagnostic):
            sessions.report(diagnostic, run: currentRun(line: number, remote: remote))
        }
        if let run { recorder?.write(line, run: run, header: headerLine) }
    }

    /// The connection's run; a connection that sends events before any session line gets one of its own.
    private func currentRun(line: Int, remote: SocketAddress?) -> String {
        if let run { return run }
        let header = SessionHeader(app: "unknown", run: "connection-\(remote.map { "\($0)" } ?? "?")-line-\(line)")
        sessions.open(header)
        sessions.report(Diagnostic(line: line, message: "events before any session line on this connection"), run: header.run)
        run = header.run
        headerLine = Array(#"{"event":"session","v":1,"app":"unknown","run":"\#(header.run)"}"#.utf8)
        return header.run
    }
}
