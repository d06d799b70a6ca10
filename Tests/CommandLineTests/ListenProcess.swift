import Foundation
import TestSupport

/// A `coordlens listen` process for tests: started on a free port, its status lines collected as they come, its
/// memory readable from /proc.
final class ListenProcess: @unchecked Sendable {
    let process = Process()
    private(set) var port = 0
    private let output = ProcessOutput()

    /// Starts `coordlens listen --port <port> <arguments>`, under `ulimit -n descriptors` when given, inside
    /// `namespace` when given, and waits (at most 20 s) until it says where it listens.
    init(_ arguments: [String], descriptors: Int? = nil, port: Int = 0, namespace: NetworkNamespace? = nil) throws {
        let executable = try BuiltProduct.coordlens.locate()
        let command = [executable.path, "listen", "--port", "\(port)", "--http-port", "0"] + arguments
        if let namespace {
            let wrapped = namespace.command(command)
            process.executableURL = URL(fileURLWithPath: wrapped[0])
            process.arguments = Array(wrapped.dropFirst())
        } else if let descriptors {
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", "ulimit -n \(descriptors) && exec \"$0\" \"$@\""] + command
        } else {
            process.executableURL = executable
            process.arguments = Array(command.dropFirst())
        }
        process.standardOutput = output.pipe
        try process.run()
        output.collect()
        let announced = waitForLine(timeout: 20) { $0.hasPrefix("coordlens listening on") }
        guard let announced, let port = Int(announced.split(separator: ":").last ?? "") else {
            stop()
            throw ListenProcessFailure(message: "listen did not start: \(lines)")
        }
        self.port = port
    }

    deinit { stop() }

    /// The inspector page's port, from the `Inspector: http://…:PORT/` line it prints on start, waited for: the page
    /// binds after the hook port, so the line can come a moment after the one `init` waits for.
    var pagePort: Int? {
        guard let line = waitForLine(timeout: 20, { $0.hasPrefix("Inspector: ") }), let address = line.split(separator: " ").dropFirst().first,
            let colon = address.lastIndex(of: ":")
        else { return nil }
        return Int(address[address.index(after: colon)...].prefix { $0.isNumber })
    }

    /// Every complete status line so far.
    var lines: [String] { output.lines }

    /// The text of the file at `path` once it satisfies `matches` (a picture `--out` writes after its status line),
    /// waiting up to `timeout` seconds; nil when it never did.
    func waitForFile(_ path: String, timeout: Double, _ matches: (String) -> Bool = { _ in true }) -> String? {
        var found: String?
        waitUntil(seconds: timeout) {
            guard let data = FileManager.default.contents(atPath: path), case let text = String(decoding: data, as: UTF8.self), matches(text)
            else { return false }
            found = text
            return true
        }
        return found
    }

    /// The first line that satisfies `matches`, waiting up to `timeout` seconds for it.
    func waitForLine(timeout: Double, _ matches: (String) -> Bool) -> String? {
        var found: String?
        waitUntil(seconds: timeout) {
            found = lines.first(where: matches)
            return found != nil
        }
        return found
    }

    /// Resident memory in MiB, from /proc/PID/status.
    var residentMiB: Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
            let kilobytes = Int(line.split(separator: " ").dropFirst().first ?? "")
        else { return nil }
        return kilobytes / 1_024
    }

    /// CPU seconds used so far (user plus system), from /proc/PID/stat.
    var cpuSeconds: Double? {
        guard let stat = try? String(contentsOfFile: "/proc/\(process.processIdentifier)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// Sends `signal` and waits up to `timeout` seconds for the process to exit; false if it is still running.
    func send(_ signal: Int32, exitWithin timeout: Double) -> Bool {
        kill(process.processIdentifier, signal)
        return waitUntil(seconds: timeout) { !process.isRunning }
    }

    /// Kills it if it still runs. SIGKILL, not terminate(): see ProcessRun.
    func stop() {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }
}

struct ListenProcessFailure: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}

/// Samples a process's resident memory every 20 ms on a thread of its own and keeps the peak.
final class PeakMemory: @unchecked Sendable {
    private let lock = NSLock()
    private var peak = 0
    private var running = true

    init(of listen: ListenProcess) {
        Thread { [self] in
            while lock.withLock({ running }) {
                if let now = listen.residentMiB { lock.withLock { peak = max(peak, now) } }
                // clock: a sampler, not a wait: the peak is what it saw at this period.
                Thread.sleep(forTimeInterval: 0.02)
            }
        }.start()
    }

    /// The highest resident memory seen so far, in MiB; stops sampling.
    func stop() -> Int {
        lock.withLock {
            running = false
            return peak
        }
    }
}
