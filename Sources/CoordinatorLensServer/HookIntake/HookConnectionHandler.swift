import CoordinatorLens
import CoordinatorWire
import Foundation
import NIOCore

/// Asks a hook connection to send its last acknowledgement now, before `listen` closes it.
struct FinalAcknowledgement: Sendable {}

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
    /// The connection ended: a last line without its newline was cut, not refused (a hook sends it again whole).
    private var ended = false
    /// What `listen` holds for good of each run, and what this connection last told its hook of it.
    private let acknowledged: AcknowledgedSeqs
    /// The hook asked for acknowledgements in its session line (`"acks":1`).
    private var acknowledging = false
    private var lastAcknowledged = -1
    private var ticker: RepeatedTask?
    /// How often an acknowledging connection is told what was kept since.
    static let acknowledgementInterval = TimeAmount.milliseconds(20)

    /// `name` names the reader's runs; a connection whose first line is no session line is closed, never a session.
    init(
        name: String, sessions: LiveSessions, recorder: StreamRecorder?, maxLineBytes: Int,
        acknowledged: AcknowledgedSeqs = AcknowledgedSeqs(),
        changed: @escaping @Sendable () -> Void = {}, log: @escaping @Sendable (String) -> Void
    ) {
        self.sessions = sessions
        self.recorder = recorder
        self.acknowledged = acknowledged
        self.changed = changed
        self.log = log
        reader = StreamReader(maxLineBytes: maxLineBytes, inventedRunPrefix: "\(name)-")
        // Its string ids are held from decoding until their session's tree holds them, and not for good.
        reader.idScope = IDSpellingScope()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !refused else { return }
        let buffer = unwrapInboundIn(data)
        buffer.withUnsafeReadableBytes { bytes in
            reader.consume(bytes) { item, line in take(item, line, context) }
        }
        changed()
        if refused { context.close(promise: nil) }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is FinalAcknowledgement {
            acknowledge(context, force: true)
        } else {
            context.fireUserInboundEventTriggered(event)
        }
    }

    /// Tells the hook the highest seq of its run that `listen` holds for good, when that moved (or `force`), after the
    /// seqs it refused since the last time (`{"dropped":A,"to":B,"why":…}`), which the hook counts as dropped.
    private func acknowledge(_ context: ChannelHandlerContext, force: Bool = false) {
        guard acknowledging, let run, context.channel.isWritable else { return }
        let (refusals, seq) = acknowledged.take(of: run)
        guard seq > lastAcknowledged || force || !refusals.isEmpty else { return }
        var buffer = context.channel.allocator.buffer(capacity: 32)
        for refusal in refusals {
            buffer.writeString("{\"dropped\":\(refusal.seqs.lowerBound),\"to\":\(refusal.seqs.upperBound),\"why\":")
            buffer.writeBytes(JSONString.quoted(refusal.why.utf8))
            buffer.writeString("}\n")
        }
        if seq > lastAcknowledged || force {
            lastAcknowledged = seq
            buffer.writeString("{\"ack\":\(seq)}\n")
        }
        context.writeAndFlush(NIOAny(buffer), promise: nil)
    }

    /// The first acknowledgement after a session line: once every line queued for the recording before it is
    /// written, so that a hook that reconnects is told all that `listen` already holds of its run.
    private func acknowledgeSession(_ context: ChannelHandlerContext) {
        lastAcknowledged = -1
        if ticker == nil {
            let loop = context.eventLoop
            let handler = NIOLoopBound(self, eventLoop: loop)
            let bound = NIOLoopBound(context, eventLoop: loop)
            ticker = loop.scheduleRepeatedTask(initialDelay: Self.acknowledgementInterval, delay: Self.acknowledgementInterval) { _ in
                handler.value.acknowledge(bound.value)
            }
        }
        guard let recorder else { return acknowledge(context, force: true) }
        let loop = context.eventLoop
        let handler = NIOLoopBound(self, eventLoop: loop)
        let bound = NIOLoopBound(context, eventLoop: loop)
        recorder.afterWriting {
            loop.execute { handler.value.acknowledge(bound.value, force: true) }
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        ticker?.cancel()
        ticker = nil
        ended = true
        if !refused { reader.finish { item, line in take(item, line, context) } }
        if let run { sessions.close(run: run) }
        run = nil
        changed()
        context.fireChannelInactive()
    }

    /// The session line as the recording keeps it: marked `"recorder":"listen"`, so `check` knows that many runs in
    /// one file is this file's format and not a file sink several launches appended to.
    static func recorded(_ line: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        var bytes = Array(line)
        while let last = bytes.last, last == 0x20 || last == 0x0D || last == 0x09 { bytes.removeLast() }
        let marker = Array(#""recorder":"#.utf8)
        let marked = bytes.count >= marker.count && bytes.indices.dropLast(marker.count - 1).contains { bytes[$0..<$0 + marker.count].elementsEqual(marker) }
        guard bytes.count > 2, bytes.last == UInt8(ascii: "}"), !marked else { return Array(line) }
        bytes.removeLast()
        bytes.append(contentsOf: #","recorder":"listen"}"#.utf8)
        return bytes
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }

    private func take(_ item: StreamReader.Item, _ line: UnsafeBufferPointer<UInt8>, _ context: ChannelHandlerContext) {
        guard !refused else { return }
        switch item {
        case .session(let header, _):
            if run != header.run {
                guard switchTo(header) else { return }
            }
            headerLine = Self.recorded(line)
            if let recorder { headerLine.withUnsafeBufferPointer { recorder.write($0, run: header.run, header: headerLine) } }
            acknowledging = Self.asksForAcknowledgements(line)
            if acknowledging { acknowledgeSession(context) }
        case .inventedSession:
            // A hook's first line is its session line. Anything else on the port (a scanner, a stray client, a byte
            // and a close) never becomes a session: it would take a place among the runs `listen` holds, evict a real
            // one, and write status lines by the thousand. Closed and counted; said at 1, 10, 100, … of them.
            refused = true
            let count = sessions.noteJunkConnection()
            let digits = String(count)
            if digits.first == "1", digits.dropFirst().allSatisfy({ $0 == "0" }) {
                log("closed \(count) connection\(count == 1 ? "" : "s") whose first line was no session line (not a hook)")
            }
        case .record(let record, let run):
            sessions.apply(record, run: run)
            if let recorder {
                recorder.write(line, run: run, header: headerLine, seq: record.seq)
            } else {
                acknowledged.note(record.seq, of: run)
            }
        case .malformed(let diagnostic, let run), .overlong(let diagnostic, let run):
            sessions.reportUnreadable(diagnostic, run: run)
            refuse(line, of: run, diagnostic)
        }
    }

    /// A line `listen` cannot keep: when it carries a seq (an event the producer numbered), its hook is told so before
    /// any acknowledgement passes it, and the recording gets a `gap` line in its place saying why.
    private func refuse(_ line: UnsafeBufferPointer<UInt8>, of run: String, _ diagnostic: Diagnostic) {
        guard !ended, let seq = AcknowledgedSeqs.seq(in: line) else { return }
        let why = diagnostic.message.hasPrefix("line longer than") ? diagnostic.message.prefix { $0 != ":" } + "" : diagnostic.message
        acknowledged.refuse(seq...seq, of: run, why: why)
        recorder?.writeGap(run: run, header: headerLine, count: 1, why: why)
    }

    /// Whether a session line holds `"acks": 1`, the hook's request for acknowledgements (unknown to the core's
    /// decoder, which ignores keys it does not know). Read as JSON, so spacing and key order do not matter; the
    /// session line is one per connection, so parsing it twice costs nothing that counts.
    static func asksForAcknowledgements(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let object = try? JSONSerialization.jsonObject(with: Data(line)) as? [String: Any],
            let acks = object["acks"] as? NSNumber
        else { return false }
        return acks.doubleValue == 1
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
