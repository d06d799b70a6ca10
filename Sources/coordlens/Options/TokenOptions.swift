import ArgumentParser
import CoordinatorLensServer
import Foundation

/// `--token` and `--unsafe-no-token`: bound beyond loopback, `listen` and `view` always want a token, generated unless
/// given; on loopback none is needed, and one given is still required.
struct TokenOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The access token for the page and the hook (at least 32 letters, digits, - or _); also COORDLENS_TOKEN. Generated when binding beyond loopback.",
            valueName: "TOKEN"))
    var token: String?

    @Flag(name: .customLong("unsafe-no-token"), help: "Bind beyond loopback with no token: anyone on the network can read the page and stream sessions in.")
    var unsafeNoToken = false

    /// The token for a server bound to `host`: the one given, a new one beyond loopback, or none.
    func resolve(host: String) throws -> AccessToken? {
        let given = token ?? ProcessInfo.processInfo.environment["COORDLENS_TOKEN"].flatMap { $0.isEmpty ? nil : $0 }
        if let given {
            guard !unsafeNoToken else { throw ValidationError("--token and --unsafe-no-token contradict each other") }
            guard let token = AccessToken(given) else {
                throw ValidationError("a token needs at least \(AccessToken.minimumLength) characters, each a letter, a digit, - or _")
            }
            return token
        }
        if unsafeNoToken || LoopbackHost.isLoopback(host) { return nil }
        return AccessToken.generate()
    }
}

/// Whether an address to bind stays on this machine.
enum LoopbackHost {
    static func isLoopback(_ host: String) -> Bool {
        host == "localhost" || host == "::1" || host.hasPrefix("127.")
    }
}
