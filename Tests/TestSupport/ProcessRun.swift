import Foundation

/// One finished run of an executable: its exit status and everything it wrote.
public struct ProcessRun: Sendable {
    /// The exit status, or the signal number when a signal ended the process.
    public var status: Int32
    /// Everything the process wrote to standard output, decoded as UTF-8.
    public var standardOutput: String
    /// Everything the process wrote to standard error, decoded as UTF-8.
    public var standardError: String

    /// A run that was still going after its timeout and was killed.
    public struct TimedOut: Error, CustomStringConvertible {
        /// The executable's file name.
        public let product: String
        /// Says which executable was killed.
        public var description: String { "\(product) did not finish in time and was killed" }
    }

    /// Runs `executable` with `arguments` and waits for it, blocking the calling thread.
    ///
    /// `input` is written to its standard input, which is then closed (without `input` it reads end of file at once);
    /// `directory` is its working directory (this process's when nil). Standard output and standard error are read
    /// while it runs, each on its own thread, so neither pipe can fill up and stall it. With a `timeout` (seconds) a
    /// run still going by then is killed and `TimedOut` is thrown. `environment` adds to (or overrides) this
    /// process's environment.
    public static func run(
        _ executable: URL, _ arguments: [String], input: String? = nil, in directory: URL? = nil,
        timeout: Double? = nil, environment: [String: String] = [:]
    ) throws -> ProcessRun {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        if let directory { process.currentDirectoryURL = directory }
        let standardInput = Pipe()
        let standardOutput = Pipe()
        let standardError = Pipe()
        process.standardInput = standardInput
        process.standardOutput = standardOutput
        process.standardError = standardError
        try process.run()

        // SIGKILL, not `terminate()`'s SIGTERM: on Linux a process started from a Dispatch or Swift concurrency thread
        // inherits that thread's signal mask, SIGTERM blocked (swiftlang/swift-corelibs-foundation#4772).
        let timer = DispatchWorkItem { [process] in if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        defer { timer.cancel() }
        if let timeout { DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: timer) }

        let writer = standardInput.fileHandleForWriting
        let written = onItsOwnThread {
            // A process that exits without reading all its input breaks the pipe: SIGPIPE is blocked on this thread
            // alone, so the write fails with EPIPE instead of the signal ending the test process.
            var brokenPipe = sigset_t()
            sigemptyset(&brokenPipe)
            sigaddset(&brokenPipe, SIGPIPE)
            pthread_sigmask(SIG_BLOCK, &brokenPipe, nil)
            if let input { try? writer.write(contentsOf: Data(input.utf8)) }
            try? writer.close()
        }
        let errorReader = standardError.fileHandleForReading
        let errors = onItsOwnThread { errorReader.readDataToEndOfFile() }
        let output = standardOutput.fileHandleForReading.readDataToEndOfFile()
        let errorData = errors()
        written()
        process.waitUntilExit()

        if timeout != nil, process.terminationReason == .uncaughtSignal {
            throw TimedOut(product: executable.lastPathComponent)
        }
        return ProcessRun(
            status: process.terminationStatus,
            standardOutput: String(decoding: output, as: UTF8.self),
            standardError: String(decoding: errorData, as: UTF8.self)
        )
    }

    /// Runs `executable` as `run` does, on a thread of its own, so the awaiting task holds no thread of the
    /// cooperative pool while the process runs.
    public static func runAsync(
        _ executable: URL, _ arguments: [String], input: String? = nil, in directory: URL? = nil,
        timeout: Double? = nil, environment: [String: String] = [:]
    ) async throws -> ProcessRun {
        try await withCheckedThrowingContinuation { continuation in
            Thread {
                continuation.resume(
                    with: Result {
                        try run(executable, arguments, input: input, in: directory, timeout: timeout, environment: environment)
                    })
            }.start()
        }
    }
}

/// Starts `work` on a new thread; the closure returned waits for it to finish and hands back what it produced.
private func onItsOwnThread<Value: Sendable>(_ work: @escaping @Sendable () -> Value) -> () -> Value {
    let slot = ResultSlot<Value>()
    Thread {
        slot.value = work()
        slot.filled.signal()
    }.start()
    return {
        slot.filled.wait()
        return slot.value!
    }
}

/// Where a thread leaves its result: `value` is written once before `filled` is signalled and read only after
/// waiting on `filled`, so the semaphore orders every access.
private final class ResultSlot<Value>: @unchecked Sendable {
    var value: Value?
    let filled = DispatchSemaphore(value: 0)
}
