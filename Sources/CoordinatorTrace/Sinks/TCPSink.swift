import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Streams lines to `coordlens listen` over TCP.
///
/// While no inspector listens it retries with exponential backoff and returns 0 from `deliver`, so the tracer keeps
/// a bounded backlog and later reports what it had to drop. Each new connection starts with the session line, so the
/// inspector can resume the same run after a reconnect.
///
/// The session line asks for acknowledgements (`"acks":1`): `listen` answers `{"ack":N}` lines, N the highest seq of
/// the run it holds for good (recorded, or applied when it records nothing). Lines sent and not yet acknowledged are
/// kept; when a connection fails they are resent on the next one, after its first acknowledgement says what that
/// inspector already holds, so a restart or a cut connection loses nothing and duplicates nothing. An inspector that
/// does not acknowledge (one older than this) is streamed to as before, and what it is sent is counted unconfirmed.
/// Lines the inspector took and will not keep (too long, unreadable, a recording the disk refused) it names in a
/// `{"dropped":A,"to":B,"why":…}` line before acknowledging past them: the sink forgets them and the session counts
/// them dropped. Lines go out whole: a send the socket cannot take stops at a line boundary, and a line once begun is
/// finished unless the connection fails.
///
/// With a token (an inspector bound beyond loopback prints it), every connection starts with `{"auth":"TOKEN"}`. An
/// inspector that refuses it answers `{"refused":"token"}` and closes; the sink says so once on the app's standard
/// error and keeps trying at its longest backoff, so the backlog fills and its drops are counted as with no
/// inspector at all.
public final class TCPSink: TraceSink, @unchecked Sendable {
    /// The inspector's host name or address.
    public let host: String
    /// The inspector's TCP port.
    public let port: Int
    /// The `auth` line sent first on every connection, when a token was given.
    let authLine: [UInt8]?
    /// Whether the inspector's refusal was told to the app's console already.
    var refusalTold = false
    var socket: Int32 = -1
    var sessionLine: [UInt8]?
    var nextAttempt: UInt64 = 0
    var backoff: UInt64 = TCPSink.initialBackoff
    /// Lines sent and not acknowledged yet, with their seqs, oldest first from `unackedStart`.
    var unacked: [(seq: Int, line: [UInt8])] = []
    var unackedStart = 0
    /// Of those, the ones from here on are still to be sent on the current connection (after a reconnect).
    var unsentFrom = 0
    /// Whether the inspector acknowledges; nil until the first connection tells.
    var acknowledging: Bool?
    /// Bytes received that do not end in a newline yet.
    var received: [UInt8] = []
    /// The rest of a line the socket took only part of: sent before anything else, so lines stay whole.
    var tail: [UInt8] = []
    /// When the connection last took bytes or acknowledged lines.
    var lastProgress: UInt64 = 0
    /// Lines joined for one send, kept to reuse its storage.
    var batch: [UInt8] = []
    /// Lines the inspector said it did not keep, not yet taken by the session (`takeRefusedLines`), and its reason.
    var refused = LostLines()
    var refusalReason: String?
    /// Lines sent to an inspector that does not acknowledge: nobody can say whether it kept them.
    var sentUnacknowledging = LostLines()

    static let initialBackoff: UInt64 = 50_000_000
    static let maximumBackoff: UInt64 = 2_000_000_000
    static let connectTimeoutMilliseconds: Int32 = 1_000
    /// How long a new connection waits for the inspector's first acknowledgement.
    static let firstAcknowledgementMilliseconds: Int32 = 500
    /// How long `close` waits for the socket to take the rest of a line it took part of.
    static let lineCompletionMilliseconds: Int32 = 500
    /// The socket's send buffer (Linux doubles it): small enough that a slow inspector makes the writer keep lines
    /// (and count what it drops) rather than the kernel, and that the final `dropped` and `end` lines of a session that
    /// gives up get through within its last half second at 1 MB/s; 128 KiB in flight still carries 6 MB/s at 20 ms.
    static let sendBufferBytes: Int32 = 64 * 1024
    /// A connection that takes no byte and acknowledges no line for this long while lines wait is taken for dead (a
    /// peer gone without closing, a stalled inspector): it is dropped, and what it did not acknowledge is resent on
    /// the next one.
    static let stallNanoseconds: UInt64 = 3_000_000_000
    /// Bytes of whole lines handed to the socket in one send.
    static let batchBytes = 64 * 1024
    /// Lines kept unacknowledged at most; past it `deliver` takes nothing until acknowledgements come.
    static let maximumUnacknowledged = 16_384

    /// Nothing connects yet: the first delivery does. `token` is the one `coordlens listen` printed when it binds
    /// beyond loopback.
    public init(host: String, port: Int, token: String? = nil) {
        self.host = host
        self.port = port
        authLine = token.map { Array(#"{"auth":"#.utf8) + LineEncoder.quoted($0.utf8) + Array("}\n".utf8) }
    }

    deinit {
        closeSocket()
    }

    /// A connection that took nothing for a moment is waited for, up to `stallNanoseconds` without progress.
    var holdsLiveConnection: Bool { socket >= 0 }

    var retryAt: UInt64? { socket < 0 ? nextAttempt : nil }

    private(set) var hasReachedReceiver = false

    /// Lines sent and not acknowledged yet.
    var unacknowledged: Int { unacked.count - unackedStart }

    /// Whether the inspector acknowledges: nil until a connection told.
    var acknowledges: Bool? { acknowledging }

    /// The seq of the oldest line sent and not acknowledged yet.
    var oldestUnacknowledgedSeq: Int? { unackedStart < unacked.count ? unacked[unackedStart].seq : nil }

    /// The lines the inspector said it did not keep since the last call, and the reason it gave first.
    func takeRefusedLines() -> (lines: LostLines, why: String?) {
        defer {
            refused = LostLines()
            refusalReason = nil
        }
        return (refused, refusalReason)
    }

    public func deliver(_ lines: ArraySlice<[UInt8]>) -> Int {
        if sessionLine == nil, let first = lines.first { sessionLine = first }
        var lines = lines
        if socket < 0 {
            guard MonotonicClock.now() >= nextAttempt, sessionLine != nil, connect(), start() else { return 0 }
            // The session line was just sent.
            if let first = lines.first, first == sessionLine {
                lines = lines.dropFirst()
                guard !lines.isEmpty else { return 1 }
                return 1 + deliverOnConnection(lines)
            }
        }
        return deliverOnConnection(lines)
    }

    func deliverOnConnection(_ lines: ArraySlice<[UInt8]>) -> Int {
        readAcknowledgements(waitingMilliseconds: 0)
        guard socket >= 0 else { return 0 }
        guard resendPending() else {
            dropIfStalled()
            return 0
        }
        var index = lines.startIndex
        while index < lines.endIndex, sendTail() {
            let room = acknowledging == true ? Self.maximumUnacknowledged - unacknowledged : Int.max
            guard room > 0 else { break }
            // Whole lines, up to `batchBytes`, in one send: a system call per line would cap a burst at a few hundred
            // thousand lines a second.
            batch.removeAll(keepingCapacity: true)
            var end = index
            while end < lines.endIndex, end - index < room, batch.isEmpty || batch.count + lines[end].count <= Self.batchBytes {
                batch.append(contentsOf: lines[end])
                end += 1
            }
            let sent = sendSome(batch[...])
            var offset = 0
            var taken = index
            while taken < end, offset < sent {
                let line = lines[taken]
                offset += line.count
                // The line the socket took part of: its rest goes before anything else, so it is never left cut.
                if offset > sent { tail = Array(line[(line.count - (offset - sent))...]) }
                if acknowledging == true, let seq = Self.seq(of: line) {
                    unacked.append((seq, line))
                    unsentFrom = unacked.count
                } else if acknowledging == false {
                    sentUnacknowledging.add(CollectionOfOne(line))
                }
                taken += 1
            }
            index = taken
            if taken < end || socket < 0 { break }
        }
        let delivered = index - lines.startIndex
        if delivered == 0 { dropIfStalled() }
        return delivered
    }

    func waitForRoom(milliseconds: Int32) {
        guard socket >= 0 else { return }
        let full = acknowledging == true && unacknowledged >= Self.maximumUnacknowledged
        var poller = pollfd(fd: socket, events: Int16(full ? POLLIN : POLLIN | POLLOUT), revents: 0)
        if poll(&poller, 1, milliseconds) == 1, poller.revents & Int16(POLLIN) != 0 {
            readAcknowledgements(waitingMilliseconds: 0)
        }
    }

    func awaitAcknowledgement(milliseconds: Int32) {
        guard socket >= 0 else { return }
        readAcknowledgements(waitingMilliseconds: milliseconds, untilFirst: true)
        dropIfStalled()
    }

    /// Waits, at most `timeout` seconds, until every line sent is acknowledged; reconnects and resends if the
    /// connection fails meanwhile. True when nothing is left unacknowledged.
    func awaitAcknowledgements(timeout: Double) -> Bool {
        let deadline = MonotonicClock.now() + UInt64(max(0, timeout) * 1e9)
        while unacknowledged > 0, MonotonicClock.now() < deadline {
            if socket < 0 {
                // An inspector that is restarting or too loaded to accept at once is tried again until the deadline:
                // giving up early would count as lost lines it may already hold.
                nextAttempt = 0
                if !(connect() && start()) { Thread.sleep(forTimeInterval: 0.05) }
                continue
            }
            guard sendTail(), resendPending() else {
                if socket >= 0 { readAcknowledgements(waitingMilliseconds: 5) }
                dropIfStalled()
                continue
            }
            dropIfStalled()
            let left = Int32(clamping: (deadline &- MonotonicClock.now()) / 1_000_000)
            readAcknowledgements(waitingMilliseconds: max(1, min(left, 50)))
        }
        return unacknowledged == 0
    }

    /// Gives up on the lines surely lost: those sent on a connection that failed and not sent again on a new one.
    /// Lines in flight on a connection that still works stay, unconfirmed (`unconfirmedLines`).
    func abandonLostLines() -> [[UInt8]] {
        if socket < 0, unacknowledged > 0 {
            // Lines sent on a connection that failed may be held already: a new connection's first acknowledgement
            // says which, so only the rest count as lost. The session's last lines need this connection anyway.
            nextAttempt = 0
            if connect() { _ = start() }
        }
        guard socket >= 0 else {
            let lost = unacked[unackedStart...].map(\.line)
            unacked.removeAll()
            (unackedStart, unsentFrom) = (0, 0)
            return lost
        }
        let lost = unacked[unsentFrom...].map(\.line)
        unacked.removeSubrange(unsentFrom...)
        return lost
    }

    /// Lines sent and not acknowledged when the session stops waiting: the inspector holds some, all or none of them
    /// (a slow one may still be reading them, a relay may drop them when the app closes), and every line sent to an
    /// inspector that does not acknowledge at all.
    func unconfirmedLines() -> LostLines {
        readAcknowledgements(waitingMilliseconds: 0)
        var lines = sentUnacknowledging
        lines.add(unacked[unackedStart..<min(unsentFrom, unacked.count)].lazy.map(\.line))
        return lines
    }

    /// Sends again what a failed connection left unacknowledged; false while the socket cannot take it all.
    func resendPending() -> Bool {
        while unsentFrom < unacked.count {
            guard sendWhole(unacked[unsentFrom].line) else { return false }
            unsentFrom += 1
        }
        if acknowledging != true, !unacked.isEmpty {
            // An inspector that does not acknowledge: nothing more to track.
            unacked.removeAll()
            (unackedStart, unsentFrom) = (0, 0)
        }
        return true
    }

    /// Finishes a line the socket took part of (waiting at most `lineCompletionMilliseconds`), then closes.
    public func close() {
        if socket >= 0, !tail.isEmpty {
            var poller = pollfd(fd: socket, events: Int16(POLLOUT), revents: 0)
            let deadline = MonotonicClock.now() + UInt64(Self.lineCompletionMilliseconds) * 1_000_000
            while !tail.isEmpty, socket >= 0, MonotonicClock.now() < deadline, poll(&poller, 1, 20) >= 0 {
                _ = sendTail()
            }
        }
        closeSocket()
    }

    /// The backoff is over: an inspector that started late gets the session's end; one still absent costs a refused
    /// connection on loopback, which is immediate.
    func prepareForLastDelivery() {
        nextAttempt = 0
    }

    /// A new connection: the session line, the inspector's first acknowledgement (or none, from an older one), and
    /// the lines it does not hold yet sent again. False when the connection failed meanwhile.
    func start() -> Bool {
        if let authLine, !sendWhole(authLine) {
            dropConnection()
            return false
        }
        guard let sessionLine, sendWhole(sessionLine) else {
            dropConnection()
            return false
        }
        if acknowledging != false {
            let known = readAcknowledgements(waitingMilliseconds: Self.firstAcknowledgementMilliseconds, untilFirst: true)
            guard socket >= 0 else { return false }
            if known != nil { acknowledging = true } else if acknowledging == nil { acknowledging = false }
        }
        // What this inspector does not hold yet goes out again before anything new.
        unsentFrom = unackedStart
        hasReachedReceiver = true
        return true
    }

}

extension TCPSink: AcknowledgedSink {}
