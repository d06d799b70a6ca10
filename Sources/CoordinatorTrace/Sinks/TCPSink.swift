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
    private let authLine: [UInt8]?
    /// Whether the inspector's refusal was told to the app's console already.
    private var refusalTold = false
    private var socket: Int32 = -1
    private var sessionLine: [UInt8]?
    private var nextAttempt: UInt64 = 0
    private var backoff: UInt64 = TCPSink.initialBackoff
    /// Lines sent and not acknowledged yet, with their seqs, oldest first from `unackedStart`.
    private var unacked: [(seq: Int, line: [UInt8])] = []
    private var unackedStart = 0
    /// Of those, the ones from here on are still to be sent on the current connection (after a reconnect).
    private var unsentFrom = 0
    /// Whether the inspector acknowledges; nil until the first connection tells.
    private var acknowledging: Bool?
    /// Bytes received that do not end in a newline yet.
    private var received: [UInt8] = []
    /// The rest of a line the socket took only part of: sent before anything else, so lines stay whole.
    private var tail: [UInt8] = []
    /// When the connection last took bytes or acknowledged lines.
    private var lastProgress: UInt64 = 0
    /// Lines joined for one send, kept to reuse its storage.
    private var batch: [UInt8] = []
    /// Lines the inspector said it did not keep, not yet taken by the session (`takeRefusedLines`), and its reason.
    private var refused = LostLines()
    private var refusalReason: String?
    /// Lines sent to an inspector that does not acknowledge: nobody can say whether it kept them.
    private var sentUnacknowledging = LostLines()

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

    private func deliverOnConnection(_ lines: ArraySlice<[UInt8]>) -> Int {
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
    private func resendPending() -> Bool {
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
    private func start() -> Bool {
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

    /// Reads what the inspector sent, without waiting beyond `waitingMilliseconds`; drops acknowledged lines.
    /// Returns the last seq acknowledged, nil when none came. A closed or failed connection is dropped.
    @discardableResult
    private func readAcknowledgements(waitingMilliseconds: Int32, untilFirst: Bool = false) -> Int? {
        guard socket >= 0 else { return nil }
        var latest: Int?
        var wait = waitingMilliseconds
        var chunk = [UInt8](repeating: 0, count: 4_096)
        while socket >= 0 {
            var poller = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, wait) == 1 else { break }
            let count = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if count < 0, errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { break }
            guard count > 0 else {
                // The inspector closed the connection or it failed: what is unacknowledged goes to the next one.
                dropConnection()
                break
            }
            received.append(contentsOf: chunk[..<count])
            while let newline = received.firstIndex(of: 0x0A) {
                if let refusal = Self.refusal(in: received[..<newline]) {
                    lastProgress = MonotonicClock.now()
                    forget(refusal.seqs, why: refusal.why)
                } else if let seq = Self.acknowledgedSeq(in: received[..<newline]) {
                    latest = seq
                    lastProgress = MonotonicClock.now()
                    acknowledge(upTo: seq)
                } else if received[..<newline].starts(with: Array(#"{"refused":"#.utf8)) {
                    tellRefusal(String(decoding: received[..<newline], as: UTF8.self))
                }
                received.removeSubrange(...newline)
            }
            if untilFirst, latest != nil { break }
            wait = untilFirst ? wait : 0
        }
        return latest
    }

    /// Once per sink, on the app's standard error; the connection closes next and retries wait their longest.
    private func tellRefusal(_ line: String) {
        backoff = Self.maximumBackoff
        guard !refusalTold else { return }
        refusalTold = true
        let reason =
            line.contains("token")
            ? (authLine == nil ? "it wants a token: pass the one it printed to .tcp(host:port:token:)" : "the token is not the one it printed") : line
        FileHandle.standardError.write(Data("CoordinatorTrace: coordlens listen at \(host):\(port) refused this app's connection: \(reason)\n".utf8))
    }

    private func acknowledge(upTo seq: Int) {
        while unackedStart < unacked.count, unacked[unackedStart].seq <= seq { unackedStart += 1 }
        unsentFrom = max(unsentFrom, unackedStart)
        if unackedStart == unacked.count {
            unacked.removeAll(keepingCapacity: true)
            (unackedStart, unsentFrom) = (0, 0)
        } else if unackedStart > 4_096, unackedStart * 2 > unacked.count {
            unacked.removeFirst(unackedStart)
            unsentFrom -= unackedStart
            unackedStart = 0
        }
    }

    /// The inspector will never keep the lines with these seqs: they are no longer kept here nor sent again, and
    /// counted for the session to take (`takeRefusedLines`).
    private func forget(_ seqs: ClosedRange<Int>, why: String) {
        var first = unackedStart
        while first < unacked.count, unacked[first].seq < seqs.lowerBound { first += 1 }
        var end = first
        while end < unacked.count, unacked[end].seq <= seqs.upperBound { end += 1 }
        guard end > first else { return }
        refused.add(unacked[first..<end].lazy.map(\.line))
        if refusalReason == nil { refusalReason = why }
        unsentFrom -= max(0, min(unsentFrom, end) - first)
        unacked.removeSubrange(first..<end)
        if unackedStart == unacked.count {
            unacked.removeAll(keepingCapacity: true)
            (unackedStart, unsentFrom) = (0, 0)
        }
    }

    /// The seqs and reason of a `{"dropped":A,"to":B,"why":"…"}` line (docs/PROTOCOL.md, "Acknowledgements").
    static func refusal(in line: ArraySlice<UInt8>) -> (seqs: ClosedRange<Int>, why: String)? {
        guard line.starts(with: Array(#"{"dropped":"#.utf8)) else { return nil }
        func number(after key: String) -> Int? {
            guard let start = line.firstRange(of: Array(key.utf8))?.upperBound else { return nil }
            var value = 0
            var index = start
            while index < line.endIndex, (0x30...0x39).contains(line[index]), index - start < 18 {
                value = value * 10 + Int(line[index] - 0x30)
                index += 1
            }
            return index > start ? value : nil
        }
        guard let from = number(after: #"{"dropped":"#) else { return nil }
        let to = max(from, number(after: #","to":"#) ?? from)
        var why = ""
        if let start = line.firstRange(of: Array(#","why":""#.utf8))?.upperBound {
            // The reason as text for the app's console; escapes are kept as written.
            var end = start
            while end < line.endIndex, line[end] != UInt8(ascii: "\"") || line[end - 1] == UInt8(ascii: "\\") { end += 1 }
            why = String(decoding: line[start..<end], as: UTF8.self)
        }
        return (from...to, why)
    }

    /// The N of an `{"ack":N}` line.
    static func acknowledgedSeq(in line: ArraySlice<UInt8>) -> Int? {
        let key = Array(#""ack":"#.utf8)
        guard let start = line.firstRange(of: key)?.upperBound else { return nil }
        var value = 0
        var index = start
        while index < line.endIndex, (0x30...0x39).contains(line[index]) {
            value = value &* 10 &+ Int(line[index] - 0x30)
            index += 1
        }
        return index > start ? value : nil
    }

    /// The seq the hook's encoder writes first in every event line; nil for the session line.
    static func seq(of line: [UInt8]) -> Int? {
        let key = Array(#"{"seq":"#.utf8)
        guard line.starts(with: key) else { return nil }
        var value = 0
        var index = key.count
        while index < line.count, (0x30...0x39).contains(line[index]) {
            value = value &* 10 &+ Int(line[index] - 0x30)
            index += 1
        }
        return index > key.count ? value : nil
    }

    private func connect() -> Bool {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        #if canImport(Darwin)
        hints.ai_socktype = SOCK_STREAM
        #else
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #endif
        var results: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &results) == 0, let list = results else {
            scheduleRetry()
            return false
        }
        defer { freeaddrinfo(list) }
        var candidate: UnsafeMutablePointer<addrinfo>? = list
        while let info = candidate {
            if let connected = open(info.pointee) {
                socket = connected
                lastProgress = MonotonicClock.now()
                received.removeAll()
                backoff = TCPSink.initialBackoff
                return true
            }
            candidate = info.pointee.ai_next
        }
        scheduleRetry()
        return false
    }

    /// Connects without blocking the writer for long: a non-blocking connect, then a bounded wait. The socket stays
    /// non-blocking: sends that the socket cannot take stop at a line boundary instead of waiting.
    private func open(_ info: addrinfo) -> Int32? {
        let descriptor = Foundation.socket(info.ai_family, info.ai_socktype, info.ai_protocol)
        guard descriptor >= 0 else { return nil }
        #if canImport(Darwin)
        var one: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
        #endif
        let flags = fcntl(descriptor, F_GETFL, 0)
        _ = fcntl(descriptor, F_SETFL, flags | O_NONBLOCK)
        var status = Foundation.connect(descriptor, info.ai_addr, info.ai_addrlen)
        if status != 0, errno == EINPROGRESS {
            var poller = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
            if poll(&poller, 1, TCPSink.connectTimeoutMilliseconds) == 1 {
                var error: Int32 = 0
                var length = socklen_t(MemoryLayout<Int32>.size)
                getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &error, &length)
                status = error == 0 ? 0 : -1
            }
        }
        guard status == 0 else {
            _ = Foundation.close(descriptor)
            return nil
        }
        var size = Self.sendBufferBytes
        setsockopt(descriptor, SOL_SOCKET, SO_SNDBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        return descriptor
    }

    /// Hands one line to the socket, or nothing when it takes nothing now (false). When it takes part of the line,
    /// the rest is kept and sent before anything else, so the line is never left cut while the connection lives.
    /// False also when the connection failed (it is then dropped, and a retry scheduled).
    private func sendWhole(_ line: [UInt8]) -> Bool {
        guard sendTail() else { return false }
        let sent = sendSome(line[...])
        guard sent > 0 else { return false }
        if sent < line.count { tail = Array(line[sent...]) }
        return true
    }

    private func dropIfStalled() {
        if socket >= 0, MonotonicClock.now() &- lastProgress > Self.stallNanoseconds { dropConnection() }
    }

    /// Sends what is left of a cut line; true when nothing is left.
    private func sendTail() -> Bool {
        guard !tail.isEmpty else { return true }
        let sent = sendSome(tail[...])
        tail.removeFirst(max(0, sent))
        return tail.isEmpty
    }

    /// Sends as much of `bytes` as the socket takes without waiting; 0 when it takes nothing or the connection failed.
    private func sendSome(_ bytes: ArraySlice<UInt8>) -> Int {
        guard socket >= 0 else { return 0 }
        var sent = 0
        while sent < bytes.count {
            let result = bytes.withUnsafeBytes { buffer in
                #if canImport(Darwin)
                Foundation.send(socket, buffer.baseAddress! + sent, buffer.count - sent, 0)
                #else
                Foundation.send(socket, buffer.baseAddress! + sent, buffer.count - sent, Int32(MSG_NOSIGNAL))
                #endif
            }
            if result > 0 {
                sent += result
                lastProgress = MonotonicClock.now()
            } else if result < 0, errno == EINTR {
                continue
            } else if result < 0, errno == EAGAIN || errno == EWOULDBLOCK {
                break
            } else {
                dropConnection()
                return 0
            }
        }
        return sent
    }

    /// The connection failed: lines not acknowledged wait for the next one.
    private func dropConnection() {
        closeSocket()
        scheduleRetry()
    }

    private func scheduleRetry() {
        nextAttempt = MonotonicClock.now() + backoff
        backoff = min(backoff * 2, TCPSink.maximumBackoff)
    }

    private func closeSocket() {
        // A cut line's rest belongs to this connection; the whole line is in `unacked` to send again.
        tail.removeAll()
        guard socket >= 0 else { return }
        _ = Foundation.close(socket)
        socket = -1
    }
}

extension TCPSink: AcknowledgedSink {}
