import CoordinatorLensServer

/// The sink a user pastes into the app's `CoordinatorTrace.start`, for one address `listen` is reachable at.
enum HookLine {
    /// `.tcp(host: "…", port: N, token: "…")`, leaving out what the defaults already say (loopback, no token).
    static func sink(host: String, port: Int, token: AccessToken?) -> String {
        var arguments: [String] = []
        if !LoopbackHost.isLoopback(host) { arguments.append("host: \"\(host)\"") }
        arguments.append("port: \(port)")
        if let token { arguments.append("token: \"\(token.text)\"") }
        return ".tcp(\(arguments.joined(separator: ", ")))"
    }
}
