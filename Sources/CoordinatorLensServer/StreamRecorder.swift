import CoordinatorLens
import Foundation

/// Writes the raw lines of every connection to one file that `render` and `check` can replay.
///
/// Lines from several apps interleave, so before a line of a different run than the last one written, that run's
/// session line is written again: a reader continues a run it has seen instead of starting a new session.
final class StreamRecorder: @unchecked Sendable {
    private let lock = NSLock()
    private let handle: FileHandle
    private var lastRun: String?
    private var failed = false

    init(path: String) throws {
        guard FileManager.default.createFile(atPath: path, contents: nil), let handle = FileHandle(forWritingAtPath: path) else {
            throw ListenError(message: "cannot create the recording \(path)")
        }
        self.handle = handle
    }

    /// Appends one complete line (without newline) belonging to `run`, whose session line is `header`.
    func write(_ line: UnsafeBufferPointer<UInt8>, run: String, header: [UInt8]) {
        var data = Data()
        lock.lock()
        defer { lock.unlock() }
        if lastRun != run, Array(line) != header {
            data.append(contentsOf: header)
            data.append(0x0A)
        }
        lastRun = run
        data.append(contentsOf: line)
        data.append(0x0A)
        do {
            try handle.write(contentsOf: data)
        } catch where !failed {
            failed = true
            FileHandle.standardError.write(Data("coordlens: recording stopped: \(error.localizedDescription)\n".utf8))
        } catch {}
    }

    func close() {
        lock.lock()
        defer { lock.unlock() }
        try? handle.close()
    }
}

/// A problem that stops `listen` from starting.
public struct ListenError: Error, CustomStringConvertible {
    /// Says what could not be opened, the address or the recording file, and why.
    public var message: String
    public var description: String { message }
}
