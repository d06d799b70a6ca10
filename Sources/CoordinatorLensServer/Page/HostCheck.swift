/// Which `Host` headers the page answers. A web page on another site can make a browser send requests to
/// 127.0.0.1 by resolving its own name there (DNS rebinding); such requests carry that name, so only IP literals
/// and `localhost`, with the port the page serves, are accepted.
struct HostCheck: Sendable {
    let port: Int

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
