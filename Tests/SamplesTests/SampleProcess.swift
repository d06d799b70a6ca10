import Foundation

/// Runs a sample as a real process and waits for it without holding a thread.
enum SampleProcess {
    struct TimedOut: Error, CustomStringConvertible {
        let product: String
        var description: String { "\(product) did not finish in time and was terminated" }
    }

    /// Runs `executable` with `arguments` and returns its exit status; a run longer than `timeout` is terminated.
    static func run(_ executable: URL, arguments: [String], timeout: Double = 60) async throws -> Int32 {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        let timer = DispatchWorkItem { [process] in if process.isRunning { process.terminate() } }
        defer { timer.cancel() }
        let status: Int32 = try await withCheckedThrowingContinuation { continuation in
            process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
            do {
                try process.run()
            } catch {
                process.terminationHandler = nil
                continuation.resume(throwing: error)
                return
            }
            DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: timer)
        }
        if process.terminationReason == .uncaughtSignal { throw TimedOut(product: executable.lastPathComponent) }
        return status
    }
}
