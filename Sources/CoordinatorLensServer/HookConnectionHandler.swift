import CoordinatorLens
import NIOCore

/// Reads one hook connection through the core's `StreamReader` and feeds its session's live tree and the recording.
final class HookConnectionHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    private let sessions: LiveSessions
    private let recorder: StreamRecorder?
    private let log: @Sendable (String) -> Void
    /// Tells the page feed that sessions changed; called once per read, not per line.
    private let changed: @Sendable () -> Void
    private var reader: StreamReader
    private var run: String?
    private var headerLine: [UInt8] = []
    private var refused = false

    /// `name` tells this connection's invented run apart when it sends events before any session line.
    init(
        name: String, sessions: LiveSessions, recorder: StreamRecorder?, maxLineBytes: Int,
        changed: @escaping @Sendable () -> Void = {}, log: @escaping @Sendable (String) -> Void
    ) {
        self.sessions = sessions
        self.recorder = recorder
        self.changed = changed
        self.log = log
        reader = StreamReader(maxLineBytes: maxLineBytes, inventedRunPrefix: "\(name)-")
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !refused else { return }
        let buffer = unwrapInboundIn(data)
        buffer.withUnsafeReadableBytes { bytes in
            reader.consume(bytes) { item, line in take(item, line) }
        }
        changed()
        if refused { context.close(promise: nil) }
    }

    func channelInactive(context: ChannelHandlerContext) {
        if !refused { reader.finish { item, line in take(item, line) } }
        if let run { sessions.close(run: run) }
        run = nil
        changed()
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }

    private func take(_ item: StreamReader.Item, _ line: UnsafeBufferPointer<UInt8>) {
        guard !refused else { return }
        switch item {
        case .session(let header, _):
            if run != header.run {
                guard switchTo(header) else { return }
            }
            headerLine = Array(line)
            recorder?.write(line, run: header.run, header: headerLine)
        case .inventedSession(let header, let note):
            guard switchTo(header) else { return }
            sessions.report(note, run: header.run)
            headerLine = Array(#"{"event":"session","v":1,"app":"unknown","run":"\#(header.run)"}"#.utf8)
        case .record(let record, let run):
            sessions.apply(record, run: run)
            recorder?.write(line, run: run, header: headerLine)
        case .malformed(let diagnostic, let run), .overlong(let diagnostic, let run):
            sessions.reportUnreadable(diagnostic, run: run)
        }
    }

    /// Leaves the current run for `header`'s; false when the session table is full and the connection is refused.
    private func switchTo(_ header: SessionHeader) -> Bool {
        if let run { sessions.close(run: run) }
        run = nil
        switch sessions.open(header) {
        case .opened:
            break
        case .shared:
            log("\(StatusLine.name(app: header.app, run: header.run)): a second connection sent a run id already in use; both feed one tree")
        case .full:
            refused = true
            log("session limit of \(sessions.maxSessions) reached: closed the connection of \(StatusLine.name(app: header.app, run: header.run))")
            return false
        }
        run = header.run
        return true
    }
}
