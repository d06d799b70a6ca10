/// Who may use the page when it has a token: a browser that brings the token once in the address gets it as an
/// HttpOnly, SameSite=Strict cookie and is sent to the same address without it; every other request, the feed
/// included, needs the cookie. Without a token (loopback) everyone on this machine may.
struct PageAccess: Sendable {
    enum Decision: Equatable {
        case allow
        /// Set the cookie and send the browser to `location`, the address without its token.
        case admit(location: String, cookie: String)
        case refuse
    }

    let token: AccessToken?
    /// The page's port, in the cookie's name: cookies are per host, not per port, and two inspectors on one machine
    /// must not overwrite each other's.
    let port: Int

    var cookieName: String { "coordlens_token_\(port)" }

    /// `authorization`: an `Authorization: Bearer TOKEN` header, for clients other than a browser (scripts, `curl`).
    func decide(target: String, cookieHeader: String?, authorization: String? = nil) -> Decision {
        guard let token else { return .allow }
        if let given = authorization.flatMap(Self.bearerCredentials), token.matches(given) { return .allow }
        let (path, query) = Self.split(target)
        if let given = query.first(where: { $0.name == "token" })?.value {
            guard token.matches(given) else { return .refuse }
            let rest = query.filter { $0.name != "token" }.map { "\($0.name)=\($0.value)" }.joined(separator: "&")
            let cookie = "\(cookieName)=\(token.text); HttpOnly; SameSite=Strict; Path=/"
            return .admit(location: rest.isEmpty ? path : "\(path)?\(rest)", cookie: cookie)
        }
        let cookies = (cookieHeader ?? "").split(separator: ";").map { $0.trimmingPrefixWhitespace }
        let mine = cookies.compactMap { pair -> Substring? in
            guard let equals = pair.firstIndex(of: "="), pair[..<equals] == cookieName else { return nil }
            return pair[pair.index(after: equals)...]
        }
        return mine.contains(where: { token.matches($0) }) ? .allow : .refuse
    }

    /// The credentials of an `Authorization` header of the Bearer scheme, whose name is case-insensitive (RFC 9110
    /// 11.1): `bearer`, `Bearer` and `BEARER` alike, one or more spaces before the token.
    static func bearerCredentials(_ header: String) -> Substring? {
        guard let space = header.firstIndex(of: " "), header[..<space].lowercased() == "bearer" else { return nil }
        let credentials = header[space...].drop { $0 == " " }
        return credentials.isEmpty ? nil : credentials
    }

    private static func split(_ target: String) -> (path: String, query: [(name: Substring, value: Substring)]) {
        guard let mark = target.firstIndex(of: "?") else { return (target, []) }
        let query = target[target.index(after: mark)...].split(separator: "&").map { pair -> (Substring, Substring) in
            guard let equals = pair.firstIndex(of: "=") else { return (pair, "") }
            return (pair[..<equals], pair[pair.index(after: equals)...])
        }
        return (String(target[..<mark]), query)
    }
}

extension Substring {
    fileprivate var trimmingPrefixWhitespace: Substring { drop { $0 == " " || $0 == "\t" } }
}
