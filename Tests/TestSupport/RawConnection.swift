import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A plain TCP connection (to 127.0.0.1 unless told) for tests that must send what no well-behaved hook sends: partial lines,
/// garbage, one byte at a time, an abrupt reset.
public final class RawConnection: @unchecked Sendable {
    private var descriptor: Int32

    /// A connection to `host`:`port` (an IPv4 literal); throws when it is refused. `receiveBuffer` shrinks the kernel's
    /// receive buffer, for a reader that lets the peer's writes back up sooner.
    public init(host: String = "127.0.0.1", port: Int, receiveBuffer: Int32? = nil) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw Failure(message: "socket: \(String(cString: strerror(errno)))") }
        if var size = receiveBuffer {
            _ = setsockopt(descriptor, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr(host)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            let message = String(cString: strerror(errno))
            closeSocket(descriptor)
            throw Failure(message: "connect to \(host):\(port): \(message)")
        }
    }

    deinit { if descriptor >= 0 { closeSocket(descriptor) } }

    /// Sends every byte, blocking until the kernel took them; throws when the peer is gone.
    public func send(_ bytes: some Collection<UInt8>) throws {
        let data = Array(bytes)
        var offset = 0
        while offset < data.count {
            let sent = data.withUnsafeBytes { raw in
                #if canImport(Glibc)
                Glibc.send(descriptor, raw.baseAddress! + offset, data.count - offset, Int32(MSG_NOSIGNAL))
                #else
                Darwin.send(descriptor, raw.baseAddress! + offset, data.count - offset, 0)
                #endif
            }
            if sent < 0 {
                if errno == EINTR { continue }
                throw Failure(message: "send: \(String(cString: strerror(errno)))")
            }
            offset += sent
        }
    }

    /// Sends `text` as UTF-8.
    public func send(_ text: String) throws {
        try send(Array(text.utf8))
    }

    /// Reads until the text received contains `marker`, the peer closes, or `seconds` pass; returns what was read.
    public func receive(until marker: String, seconds: Double) throws -> String {
        String(decoding: try receive(seconds: seconds, quiet: nil, marker: Array(marker.utf8)).bytes, as: UTF8.self)
    }

    /// Reads an HTTP response's head (its status line and headers, through the blank line), nil when the peer closed
    /// or `seconds` passed first; the bytes after it are dropped, so a binary body is never decoded as text.
    public func receiveHead(seconds: Double) throws -> String? {
        let (bytes, end) = try receive(seconds: seconds, quiet: nil, marker: Array("\r\n\r\n".utf8))
        return end.map { String(decoding: bytes[..<$0], as: UTF8.self) }
    }

    /// Reads until nothing arrives for `quiet` seconds, the peer closes, or `seconds` pass; returns what was read.
    public func receiveUntilQuiet(_ quiet: Double = 0.5, seconds: Double) throws -> String {
        String(decoding: try receive(seconds: seconds, quiet: quiet, marker: nil).bytes, as: UTF8.self)
    }

    /// The bytes read, and where the first `marker` in them ends. Searched as bytes, and only where new bytes could
    /// complete it: decoding a gzip body as text after every chunk is quadratic, and each invalid sequence it repairs
    /// makes Swift Testing capture a backtrace, which starved the server of 200 readers on 2 cores.
    private func receive(seconds: Double, quiet: Double?, marker: [UInt8]?) throws -> (bytes: [UInt8], markerEnd: Int?) {
        var received: [UInt8] = []
        let deadline = Date(timeIntervalSinceNow: seconds)
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while Date() < deadline {
            var waiting = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&waiting, 1, Int32((quiet ?? 0.1) * 1_000)) > 0 else {
                if quiet != nil { break }
                continue
            }
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count < 0, errno == EINTR { continue }
            if count < 0 { throw Failure(message: "recv: \(String(cString: strerror(errno)))") }
            if count == 0 { break }
            let searchFrom = max(0, received.count - (marker?.count ?? 0) + 1)
            received += buffer[0..<count]
            if let marker, let found = received[searchFrom...].firstRange(of: marker) { return (received, found.upperBound) }
        }
        return (received, nil)
    }

    /// Whether a read would return at once: the peer sent bytes or closed. Reads nothing, so a test can tell that the
    /// server has answered a client that must never read.
    public var isReadable: Bool {
        var waiting = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&waiting, 1, 0) > 0
    }

    /// Closes the connection normally: what was sent arrives, then end of stream.
    public func close() {
        guard descriptor >= 0 else { return }
        closeSocket(descriptor)
        descriptor = -1
    }

    /// Closes the connection with a reset (SO_LINGER 0), as a crashing app's would: anything unsent is lost.
    public func reset() {
        guard descriptor >= 0 else { return }
        var abortive = linger(l_onoff: 1, l_linger: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_LINGER, &abortive, socklen_t(MemoryLayout<linger>.size))
        close()
    }

    /// A socket call that failed, with the system's reason.
    public struct Failure: Error, CustomStringConvertible {
        /// What failed and why.
        public let message: String
        public var description: String { message }
    }
}

private func closeSocket(_ descriptor: Int32) {
    #if canImport(Glibc)
    _ = Glibc.close(descriptor)
    #else
    _ = Darwin.close(descriptor)
    #endif
}
