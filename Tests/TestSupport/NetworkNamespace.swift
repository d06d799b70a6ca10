import Foundation

/// A test host of its own: a network namespace joined to this one by a veth pair, each end with an address in a /30 of
/// 10.231.0.0/16 that no real network uses here. Tests that cross a network run a server inside and reach it from
/// outside, never over the machine's own LAN address. Needs root and iproute2; `unavailable` says why not.
public final class NetworkNamespace: @unchecked Sendable {
    /// The namespace's name, for `ip netns exec`.
    public let name: String
    /// The address of this side of the pair, in the test's own namespace.
    public let outsideAddress: String
    /// The address inside the namespace, where a server listening on 0.0.0.0 there is reached.
    public let insideAddress: String
    private let outsideLink: String
    private static let counter = NSLock()
    nonisolated(unsafe) private static var made = 0

    /// The `ip` binary, where iproute2 put it.
    public static let ip: String? = ["/usr/sbin/ip", "/sbin/ip", "/usr/bin/ip", "/bin/ip"].first { FileManager.default.isExecutableFile(atPath: $0) }

    /// Why namespaces cannot be made here, or nil when they can.
    public static var unavailable: String? {
        if getuid() != 0 { return "network namespaces need root" }
        if ip == nil { return "no ip command (Debian's iproute2)" }
        return nil
    }

    /// Makes the namespace and the pair, both ends up; throws with `ip`'s words when a step fails.
    public init() throws {
        let number = Self.counter.withLock { () -> Int in
            Self.made += 1
            return Self.made
        }
        let pid = Int(getpid())
        let tag = "\(pid % 100_000)x\(number)"
        name = "clens\(tag)"
        outsideLink = "cla\(tag)"
        let insideLink = "clb\(tag)"
        let base = 4 * (number % 64)
        let subnet = "10.231.\(pid % 250)"
        outsideAddress = "\(subnet).\(base + 1)"
        insideAddress = "\(subnet).\(base + 2)"
        do {
            try Self.ip(["netns", "add", name])
            try Self.ip(["link", "add", outsideLink, "type", "veth", "peer", "name", insideLink])
            try Self.ip(["link", "set", insideLink, "netns", name])
            try Self.ip(["addr", "add", "\(outsideAddress)/30", "dev", outsideLink])
            try Self.ip(["link", "set", outsideLink, "up"])
            try Self.ip(["netns", "exec", name, "ip", "addr", "add", "\(insideAddress)/30", "dev", insideLink])
            try Self.ip(["netns", "exec", name, "ip", "link", "set", insideLink, "up"])
            try Self.ip(["netns", "exec", name, "ip", "link", "set", "lo", "up"])
        } catch {
            remove()
            throw error
        }
    }

    deinit { remove() }

    /// The command line that runs `arguments` inside the namespace.
    public func command(_ arguments: [String]) -> [String] {
        [Self.ip!, "netns", "exec", name] + arguments
    }

    /// Takes this side of the link down or brings it back up: packets stop, connections stay, as on a Wi-Fi outage.
    public func setLink(up: Bool) throws {
        try Self.ip(["link", "set", outsideLink, up ? "up" : "down"])
    }

    /// Takes the pair and the namespace away; safe to call twice.
    public func remove() {
        _ = try? Self.ip(["link", "delete", outsideLink])
        _ = try? Self.ip(["netns", "delete", name])
    }

    /// A failed `ip` step, with what it said.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    @discardableResult
    private static func ip(_ arguments: [String]) throws -> ProcessRun {
        guard let ip else { throw Failure(description: "no ip command") }
        let run = try ProcessRun.run(URL(fileURLWithPath: ip), arguments, timeout: 20)
        guard run.status == 0 else { throw Failure(description: "ip \(arguments.joined(separator: " ")): \(run.standardError)") }
        return run
    }
}
