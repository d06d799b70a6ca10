import Foundation
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// A TCP relay on 127.0.0.1 between a hook and `coordlens listen`, for faults a real network has: it can cut every
/// connection it carries (both sides closed, as a dropped Wi-Fi would), and pass the hook's bytes on at a limited
/// rate (a slow inspector). Acknowledgements flow back unthrottled.
final class TCPProxy: @unchecked Sendable {
    let port: Int
    private let upstream: Int
    private let bytesPerSecond: Int?
    private let listener: Int32
    private let lock = NSLock()
    private var open: Set<Int32> = []
    private var pumps = 0
    private var stopped = false

    init(to upstream: Int, bytesPerSecond: Int? = nil) throws {
        self.upstream = upstream
        self.bytesPerSecond = bytesPerSecond
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.listener = listener
        var one: Int32 = 1
        setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(listener, 16) == 0 else { throw ListenProcessFailure(message: "proxy: cannot listen") }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        port = Int(UInt16(bigEndian: address.sin_port))
        Thread { [self] in acceptForever() }.start()
    }

    /// Closes both sides of every connection carried now; new ones are carried as before.
    func cut() {
        let sockets = lock.withLock { Array(open) }
        for descriptor in sockets { shutdown(descriptor, Int32(SHUT_RDWR)) }
    }

    /// Waits until every connection has been carried to its end, at most `seconds`; true when all have.
    func waitUntilIdle(seconds: Double) -> Bool {
        waitUntil(seconds: seconds) { lock.withLock { pumps == 0 } }
    }

    func stop() {
        lock.withLock { stopped = true }
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
        cut()
    }

    private func acceptForever() {
        while true {
            let client = accept(listener, nil, nil)
            if client < 0 {
                if lock.withLock({ stopped }) { return }
                continue
            }
            let server = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            address.sin_port = UInt16(upstream).bigEndian
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(server, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard connected == 0 else {
                close(client)
                close(server)
                continue
            }
            lock.withLock {
                open.formUnion([client, server])
                pumps += 2
            }
            let pair = PumpPair(client, server)
            Thread { [self] in pump(from: client, to: server, limited: true, pair) }.start()
            Thread { [self] in pump(from: server, to: client, limited: false, pair) }.start()
        }
    }

    /// Copies until the source ends or either side fails, then ends the destination's writing side.
    private func pump(from source: Int32, to destination: Int32, limited: Bool, _ pair: PumpPair) {
        var buffer = [UInt8](repeating: 0, count: 4_096)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(source, $0.baseAddress, $0.count, 0) }
            if count <= 0 { break }
            var sent = 0
            while sent < count {
                let result = buffer.withUnsafeBytes { send(destination, $0.baseAddress! + sent, count - sent, Int32(MSG_NOSIGNAL)) }
                if result <= 0 { break }
                sent += result
            }
            if sent < count { break }
            // clock: the rate is the fault: a slow inspector reads this many bytes a second.
            if limited, let bytesPerSecond { Thread.sleep(forTimeInterval: Double(count) / Double(bytesPerSecond)) }
        }
        shutdown(destination, Int32(SHUT_WR))
        lock.withLock {
            pumps -= 1
            pair.remaining -= 1
            // Both directions are done: nothing refers to the pair's sockets any more.
            if pair.remaining == 0 {
                open.subtract([pair.client, pair.server])
                close(pair.client)
                close(pair.server)
            }
        }
    }
}

/// The two sockets of one carried connection and how many of its two directions are still being copied.
private final class PumpPair: @unchecked Sendable {
    let client: Int32
    let server: Int32
    var remaining = 2

    init(_ client: Int32, _ server: Int32) {
        (self.client, self.server) = (client, server)
    }
}
