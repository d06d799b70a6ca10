import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The sink's socket: connecting with a bounded wait, sending whole lines without blocking the writer, and dropping a
/// connection that stalls, to be tried again after a backoff.
extension TCPSink {
    func connect() -> Bool {
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
    func open(_ info: addrinfo) -> Int32? {
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
    func sendWhole(_ line: [UInt8]) -> Bool {
        guard sendTail() else { return false }
        let sent = sendSome(line[...])
        guard sent > 0 else { return false }
        if sent < line.count { tail = Array(line[sent...]) }
        return true
    }

    func dropIfStalled() {
        if socket >= 0, MonotonicClock.now() &- lastProgress > Self.stallNanoseconds { dropConnection() }
    }

    /// Sends what is left of a cut line; true when nothing is left.
    func sendTail() -> Bool {
        guard !tail.isEmpty else { return true }
        let sent = sendSome(tail[...])
        tail.removeFirst(max(0, sent))
        return tail.isEmpty
    }

    /// Sends as much of `bytes` as the socket takes without waiting; 0 when it takes nothing or the connection failed.
    func sendSome(_ bytes: ArraySlice<UInt8>) -> Int {
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
    func dropConnection() {
        closeSocket()
        scheduleRetry()
    }

    func scheduleRetry() {
        nextAttempt = MonotonicClock.now() + backoff
        backoff = min(backoff * 2, TCPSink.maximumBackoff)
    }

    func closeSocket() {
        // A cut line's rest belongs to this connection; the whole line is in `unacked` to send again.
        tail.removeAll()
        guard socket >= 0 else { return }
        _ = Foundation.close(socket)
        socket = -1
    }
}
