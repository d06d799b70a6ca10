/// Which `Host` headers the page answers. A web page on another site can make a browser send requests to
/// 127.0.0.1 by resolving its own name there (DNS rebinding); such requests carry that name, so only IP literals
/// and `localhost`, with the port the page serves, are accepted.
struct HostCheck: Sendable {
    let port: Int

    /// Where a request goes: the origin-form target to route, or the answer that refuses it.
    enum Destination: Equatable {
        case route(String)
        case refuse(status: Int, message: String)
    }

    /// The destination of a request with `target` and the values of its `Host` headers. Two Host headers are refused
    /// (a proxy and the page could each read another one); an absolute-form target (`GET http://host/path`) is routed
    /// by its own authority, which RFC 9112 puts before the Host header, so that authority must be this inspector too.
    func destination(target: String, hostHeaders: [String]) -> Destination {
        guard hostHeaders.count <= 1 else { return .refuse(status: 400, message: "refused: a request has one Host header") }
        guard accepts(hostHeaders.first) else {
            return .refuse(status: 403, message: "refused: the Host header must name this inspector's address (127.0.0.1 or localhost and its port)")
        }
        if target.hasPrefix("/") { return .route(target) }
        let lowered = target.lowercased()
        guard let scheme = ["http://", "https://"].first(where: { lowered.hasPrefix($0) }) else {
            return .refuse(status: 400, message: "refused: the request target must be a path")
        }
        let rest = target.dropFirst(scheme.count)
        let end = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
        let authority = String(rest[..<end])
        guard !authority.contains("@"), accepts(authority) else {
            return .refuse(status: 421, message: "refused: the request is for another host than this inspector")
        }
        let path = rest[end...]
        return .route(path.hasPrefix("/") ? String(path) : "/" + path)
    }

    func accepts(_ header: String?) -> Bool {
        guard let header = header?.lowercased(), !header.isEmpty else { return false }
        let host: Substring
        let portText: Substring
        if header.hasPrefix("[") {
            guard let close = header.firstIndex(of: "]") else { return false }
            host = header[header.index(after: header.startIndex)..<close]
            let rest = header[header.index(after: close)...]
            guard rest.hasPrefix(":") else { return false }
            portText = rest.dropFirst()
            guard host.allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." }), host.contains(":") else { return false }
        } else {
            guard let colon = header.lastIndex(of: ":") else { return false }
            host = header[..<colon]
            portText = header[header.index(after: colon)...]
            let isIPv4 =
                host.split(separator: ".", omittingEmptySubsequences: false).count == 4
                && host.split(separator: ".", omittingEmptySubsequences: false).allSatisfy { part in
                    !part.isEmpty && part.count <= 3 && part.allSatisfy(\.isASCII) && part.allSatisfy(\.isNumber) && Int(part)! <= 255
                }
            guard isIPv4 || host == "localhost" else { return false }
        }
        return Int(portText) == port
    }
}
