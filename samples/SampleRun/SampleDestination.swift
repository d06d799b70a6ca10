import CoordinatorTrace
import Foundation

/// Where a sample streams its session, from its command line: `--tcp HOST:PORT [--token TOKEN]`, `--file PATH`, or
/// by default `stream.ndjson` in the current directory.
public enum SampleDestination: Equatable, Sendable {
    case tcp(host: String, port: Int, token: String? = nil)
    case file(String)

    /// Reads the destination from `arguments` (without the program name), or says why it cannot.
    public static func parse(_ arguments: [String]) -> Result<SampleDestination, UsageError> {
        var destination = SampleDestination.file("stream.ndjson")
        var token: String?
        var rest = arguments[...]
        while let flag = rest.popFirst() {
            switch flag {
            case "--tcp":
                guard let value = rest.popFirst(), let colon = value.lastIndex(of: ":"),
                    let port = Int(value[value.index(after: colon)...]), (1...65_535).contains(port)
                else {
                    return .failure(UsageError("--tcp needs HOST:PORT"))
                }
                let host = String(value[..<colon])
                destination = .tcp(host: host.isEmpty ? "127.0.0.1" : host, port: port)
            case "--token":
                guard let value = rest.popFirst(), !value.isEmpty else { return .failure(UsageError("--token needs the token listen printed")) }
                token = value
            case "--file":
                guard let path = rest.popFirst(), !path.isEmpty else { return .failure(UsageError("--file needs a path")) }
                destination = .file(path)
            default:
                return .failure(UsageError("unknown argument \(flag)"))
            }
        }
        if let token {
            guard case .tcp(let host, let port, _) = destination else { return .failure(UsageError("--token goes with --tcp")) }
            destination = .tcp(host: host, port: port, token: token)
        }
        return .success(destination)
    }

    /// A sink for this destination; a file starts empty, since one run is one session.
    public func makeSink() -> any TraceSink {
        switch self {
        case .tcp(let host, let port, let token):
            return TCPSink(host: host, port: port, token: token)
        case .file(let path):
            _ = FileManager.default.createFile(atPath: path, contents: nil)
            return FileSink(path: path)
        }
    }
}
