#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The addresses a device on the network can reach a server at: for a wildcard bind (`0.0.0.0`, `::`), every
/// non-loopback address of this machine's interfaces that are up; otherwise the one address bound.
enum ReachableAddresses {
    static func forBinding(_ host: String) -> [String] {
        guard host == "0.0.0.0" || host == "::" else { return LoopbackHost.isLoopback(host) ? [] : [host] }
        var first: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&first) == 0, let first else { return [] }
        defer { freeifaddrs(first) }
        var found: [String] = []
        var current: UnsafeMutablePointer<ifaddrs>? = first
        while let entry = current {
            defer { current = entry.pointee.ifa_next }
            let flags = Int32(entry.pointee.ifa_flags)
            guard flags & Int32(IFF_UP) != 0, flags & Int32(IFF_LOOPBACK) == 0, let address = entry.pointee.ifa_addr else { continue }
            let family = Int32(address.pointee.sa_family)
            // An IPv4 wildcard is reached over IPv4 only; `::` takes both on Linux.
            guard family == AF_INET || (family == AF_INET6 && host == "::") else { continue }
            var text = [CChar](repeating: 0, count: Int(NI_MAXHOST))
            let length = socklen_t(family == AF_INET ? MemoryLayout<sockaddr_in>.size : MemoryLayout<sockaddr_in6>.size)
            guard getnameinfo(address, length, &text, socklen_t(text.count), nil, 0, NI_NUMERICHOST) == 0 else { continue }
            let name = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if family == AF_INET6, name.hasPrefix("fe80") { continue }  // link-local: needs a zone a phone cannot give
            if !found.contains(name) { found.append(name) }
        }
        return found
    }
}
