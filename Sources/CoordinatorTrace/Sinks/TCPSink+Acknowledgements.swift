import Foundation

/// What the inspector answers on a connection: `{"ack":N}` lines that let the sink forget what is held for good, and
/// `{"dropped":A,"to":B,"why":…}` lines naming what it took and will not keep, counted dropped.
extension TCPSink {
    /// Reads what the inspector sent, without waiting beyond `waitingMilliseconds`; drops acknowledged lines.
    /// Returns the last seq acknowledged, nil when none came. A closed or failed connection is dropped.
    @discardableResult
    func readAcknowledgements(waitingMilliseconds: Int32, untilFirst: Bool = false) -> Int? {
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
    func tellRefusal(_ line: String) {
        backoff = Self.maximumBackoff
        guard !refusalTold else { return }
        refusalTold = true
        let reason =
            line.contains("token")
            ? (authLine == nil ? "it wants a token: pass the one it printed to .tcp(host:port:token:)" : "the token is not the one it printed") : line
        FileHandle.standardError.write(Data("CoordinatorTrace: coordlens listen at \(host):\(port) refused this app's connection: \(reason)\n".utf8))
    }

    func acknowledge(upTo seq: Int) {
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
    func forget(_ seqs: ClosedRange<Int>, why: String) {
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
}
