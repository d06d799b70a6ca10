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
public final class TCPSink: TraceSink, @unchecked Sendable {
    /// The inspector's host name or address.
    public let host: String
    /// The inspector's TCP port.
    public let port: Int
    private var socket: Int32 = -1
    private var sessionLine: [UInt8]?
    private var nextAttempt: UInt64 = 0
    private var backoff: UInt64 = TCPSink.initialBackoff

    static let initialBackoff: UInt64 = 50_000_000
    static let maximumBackoff: UInt64 = 2_000_000_000
    static let connectTimeoutMilliseconds: Int32 = 1_000

    /// Nothing connects yet: the first delivery does.
    public init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    deinit {
        closeSocket()
    }

    public func deliver(_ lines: ArraySlice<[UInt8]>) -> Int {
        guard let first = lines.first else { return 0 }
        if sessionLine == nil { sessionLine = first }
        if socket < 0 {
            guard MonotonicClock.now() >= nextAttempt, connect() else { return 0 }
            // A fresh connection needs the session line first, unless it is the very line being sent.
            if let sessionLine, sessionLine != first, !send(sessionLine) { return 0 }
        }
        var buffer: [UInt8] = []
        var ends: [Int] = []
        for line in lines {
            buffer.append(contentsOf: line)
            ends.append(buffer.count)
        }
        let sent = sendAll(buffer)
        if sent == buffer.count { return lines.count }
        return ends.firstIndex(where: { $0 > sent }) ?? lines.count
    }

    public func close() {
        closeSocket()
    }

    /// The backoff is over: an inspector that started late gets the session's end; one still absent costs a refused
    /// connection on loopback, which is immediate.
    public func prepareForLastDelivery() {
        nextAttempt = 0
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
                backoff = TCPSink.initialBackoff
                return true
            }
            candidate = info.pointee.ai_next
        }
        scheduleRetry()
        return false
    }

    /// Connects without blocking the writer for long: a non-blocking connect, then a bounded wait.
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
        _ = fcntl(descriptor, F_SETFL, flags & ~O_NONBLOCK)
        var timeout = timeval(tv_sec: 1, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        return descriptor
    }

    private func send(_ bytes: [UInt8]) -> Bool {
        sendAll(bytes) == bytes.count
    }

    /// Sends as much as the connection takes; on failure the connection is dropped and a retry scheduled.
    private func sendAll(_ bytes: [UInt8]) -> Int {
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
            } else if result < 0, errno == EINTR {
                continue
            } else {
                closeSocket()
                scheduleRetry()
                break
            }
        }
        return sent
    }

    private func scheduleRetry() {
        nextAttempt = MonotonicClock.now() + backoff
        backoff = min(backoff * 2, TCPSink.maximumBackoff)
    }

    private func closeSocket() {
        guard socket >= 0 else { return }
        _ = Foundation.close(socket)
        socket = -1
    }
}
