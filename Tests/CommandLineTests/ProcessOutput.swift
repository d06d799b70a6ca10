import Foundation

/// What a child process writes to a pipe, collected on a thread of its own as it comes, so the child never blocks on
/// a full pipe and a test can wait for a line.
final class ProcessOutput: @unchecked Sendable {
    let pipe = Pipe()
    private let lock = NSLock()
    private var text = ""

    /// Starts reading; call once the process runs.
    func collect() {
        let reader = pipe.fileHandleForReading
        Thread { [self] in
            while true {
                let data = reader.availableData
                if data.isEmpty { return }
                lock.withLock { text += String(decoding: data, as: UTF8.self) }
            }
        }.start()
    }

    /// Every line so far.
    var lines: [String] {
        lock.withLock { text.split(separator: "\n", omittingEmptySubsequences: true).map(String.init) }
    }
}
