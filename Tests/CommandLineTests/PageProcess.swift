import Foundation
import TestSupport

/// A `coordlens view` or `listen` process serving the page on a free port, for requests over real sockets: started,
/// its status lines collected, the page's address read from its `Inspector:` line.
final class PageProcess: @unchecked Sendable {
    let process = Process()
    /// The address it printed, fragment and all.
    private(set) var address = ""
    private(set) var port = 0
    private let output = ProcessOutput()

    /// Starts `coordlens <arguments>` (which must include `--http-port 0`) and waits, at most 20 s, for its address.
    init(_ arguments: [String]) throws {
        process.executableURL = try BuiltProduct.coordlens.locate()
        process.arguments = arguments
        process.standardOutput = output.pipe
        process.standardError = output.pipe
        try process.run()
        output.collect()
        var found: (address: String, port: Int)?
        waitUntil(seconds: 20) {
            if let line = outputLines.first(where: { $0.hasPrefix("Inspector: ") }),
                let url = line.split(separator: " ").dropFirst().first, let components = URLComponents(string: String(url)),
                let port = components.port
            {
                found = (String(url), port)
            }
            return found != nil || !process.isRunning
        }
        guard let found else {
            stop()
            throw ListenProcessFailure(message: "no Inspector: line: \(outputLines)")
        }
        (address, port) = found
    }

    deinit { stop() }

    /// Every complete line it printed so far.
    var outputLines: [String] { output.lines }

    /// One GET over a fresh connection: the status and the body.
    func get(_ target: String, cookie: String? = nil, host: String? = nil) throws -> (status: Int, body: String) {
        let connection = try RawConnection(port: port)
        defer { connection.close() }
        var request = "GET \(target) HTTP/1.1\r\nHost: \(host ?? "127.0.0.1:\(port)")\r\nConnection: close\r\n"
        if let cookie { request += "Cookie: \(cookie)\r\n" }
        try connection.send(request + "\r\n")
        // Nothing ever contains this marker: reads until the server closes.
        let text = try connection.receive(until: "\u{0}\u{0}", seconds: 30)
        let status = Int(text.split(separator: " ").dropFirst().first ?? "") ?? 0
        let body = text.range(of: "\r\n\r\n").map { String(text[$0.upperBound...]) } ?? ""
        return (status, body)
    }

    /// Kills it if it still runs (SIGKILL: see ProcessRun).
    func stop() {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }
}
