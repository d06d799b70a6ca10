import NIOCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A problem that stops `listen` from starting.
package struct ListenError: Error, CustomStringConvertible {
    /// Says what could not be opened, the address or the recording file, and why.
    package var message: String
    package var description: String { message }

    package init(message: String) {
        self.message = message
    }

    /// A port that could not be bound, in the user's words rather than the socket library's, naming the flag that
    /// changes it: `what` is "listen" or "serve the inspector page".
    static func binding(_ what: String, host: String, port: Int, flag: String, _ error: any Error) -> ListenError {
        let reason: String
        switch (error as? IOError)?.errnoCode {
        case EADDRINUSE: reason = "the port is in use; \(flag) picks another (0: any free one)"
        case EACCES: reason = "permission denied (ports below 1024 need root); \(flag) picks another"
        case EADDRNOTAVAIL: reason = "no such address on this machine (--host)"
        default: reason = "\(error)"
        }
        return ListenError(message: "cannot \(what) on \(host):\(port): \(reason)")
    }
}
