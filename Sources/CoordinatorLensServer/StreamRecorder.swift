import Foundation

/// Writes the lines of every connection to one file that `render` and `check` can replay, on a thread of its own.
///
/// Connections hand lines over through a queue of at most `bufferBytes`; a line that does not fit is dropped and
/// counted (the replay then shows a seq gap), so a slow disk never stalls the event loop nor grows memory.
/// Lines from several apps interleave, so before a line of a different run than the last one queued, that run's
/// session line is queued again: a reader continues a run it has seen instead of starting a new session.
final class StreamRecorder: @unchecked Sendable {
    private let condition = NSCondition()
    // Guarded by `condition`.
    private var queued: [UInt8] = []
    private var lastRun: String?
    private var closing = false
    private var dropped = 0
    private var droppedReported = 0
    private var failure: String?
    private let bufferBytes: Int
    private let handle: FileHandle
    private let finished = DispatchSemaphore(value: 0)

    init(path: String, bufferBytes: Int) throws {
        guard FileManager.default.createFile(atPath: path, contents: nil), let handle = FileHandle(forWritingAtPath: path) else {
            throw ListenError(message: "cannot create the recording \(path)")
        }
        self.handle = handle
        self.bufferBytes = bufferBytes
        let thread = Thread { [self] in drainForever() }
        thread.name = "coordlens-recorder"
        thread.start()
    }

    /// Queues one complete line (without newline) belonging to `run`, whose session line is `header`.
    func write(_ line: UnsafeBufferPointer<UInt8>, run: String, header: [UInt8]) {
        condition.lock()
        defer { condition.unlock() }
        guard !closing else { return }
        let needsHeader = lastRun != run && !line.elementsEqual(header)
        let size = line.count + 1 + (needsHeader ? header.count + 1 : 0)
        guard queued.count + size <= bufferBytes else {
            dropped += 1
            return
        }
        if needsHeader {
            queued.append(contentsOf: header)
            queued.append(0x0A)
        }
        lastRun = run
        queued.append(contentsOf: line)
        queued.append(0x0A)
        condition.signal()
    }

    /// Lines dropped since the last call because the disk could not keep up, and the write error if writing stopped.
    func takeProblems() -> (dropped: Int, failure: String?) {
        condition.lock()
        defer { condition.unlock() }
        let fresh = dropped - droppedReported
        droppedReported = dropped
        let failure = self.failure
        self.failure = nil
        return (fresh, failure)
    }

    /// Writes what is queued, then closes the file; waits at most until `deadline`. Returns whether all was written.
    @discardableResult
    func close(by deadline: Date) -> Bool {
        condition.lock()
        closing = true
        condition.signal()
        condition.unlock()
        let seconds = max(0, deadline.timeIntervalSinceNow)
        return finished.wait(timeout: .now() + seconds) == .success
    }

    private func drainForever() {
        var stopped = false
        while true {
            condition.lock()
            while queued.isEmpty && !closing { condition.wait() }
            let batch = queued
            queued.removeAll(keepingCapacity: batch.count < 1 << 20)
            let last = closing
            condition.unlock()
            if !stopped, !batch.isEmpty, let error = writeAll(batch) {
                stopped = true
                condition.lock()
                failure = "recording stopped: \(error)"
                condition.unlock()
            }
            if last {
                condition.lock()
                let rest = queued.isEmpty
                condition.unlock()
                if rest { break }
            }
        }
        try? handle.close()
        finished.signal()
    }

    /// Writes the whole batch; returns the error that stopped it.
    private func writeAll(_ batch: [UInt8]) -> String? {
        do {
            try handle.write(contentsOf: batch)
            return nil
        } catch {
            return error.localizedDescription
        }
    }
}
