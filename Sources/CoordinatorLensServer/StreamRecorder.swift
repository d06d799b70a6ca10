import CoordinatorLens
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes the lines of every connection to one file that `render` and `check` can replay, on a thread of its own.
///
/// Connections hand lines over through a queue of at most `bufferBytes`; a line that does not fit is dropped and
/// counted (the replay then shows a seq gap), so a slow disk never stalls the event loop nor grows memory.
/// Lines from several apps interleave, so before a line of a different run than the last one written, that run's
/// session line is written again: a reader continues a run it has seen instead of starting a new session.
///
/// An existing file is never emptied: the recording is appended to it, after a newline if its last line was cut, and
/// every run's first line there is its session line, so earlier runs stay whole and a run that continues (its hook
/// reconnected to a restarted `listen`) reads as one session. The file only ever holds whole lines: a write the disk
/// refuses is cut back to the last whole line, and the lines of it are counted per run; once the disk takes lines
/// again, each run that lost some gets a `gap` line saying how many, and `listen` says so too.
final class StreamRecorder: @unchecked Sendable {
    private let condition = NSCondition()
    // Guarded by `condition`.
    private var queued: [UInt8] = []
    /// Lines queued per run since the last batch was taken, with each run's session line and highest seq.
    private var queuedRuns: [String: (header: [UInt8], lines: Int)] = [:]
    private var queuedSeqs: [String: Int] = [:]
    /// Whether the writing thread holds a batch it has not finished with.
    private var writing = false
    /// Called once everything queued before they were added is written (`afterWriting`).
    private var waiting: [@Sendable () -> Void] = []
    private var lastRun: String?
    private var closing = false
    private var dropped = 0
    private var droppedReported = 0
    private var failure: String?
    private var resumed: String?
    private let bufferBytes: Int
    private let descriptor: Int32
    private let finished = DispatchSemaphore(value: 0)
    /// Bytes the file held when `listen` started.
    let existingBytes: Int
    /// Told each run's highest seq once its line is in the file.
    private let acknowledged: AcknowledgedSeqs

    // Owned by the writing thread.
    /// The file's length after the last whole line written.
    private var written: off_t
    /// Lines the disk refused, per run, not yet accounted for in the file.
    private var lost: [String: (header: [UInt8], lines: Int)] = [:]
    private var lastAttempt = Date.distantPast
    /// The run whose line was written last, so a batch after a gap starts with its own session line.
    private var lastRunWritten: String?

    /// Opens `path` for appending; the seqs of the runs it already holds go to `acknowledged`, so a hook that
    /// reconnects after a restart resends only what the file lacks.
    init(path: String, bufferBytes: Int, acknowledged: AcknowledgedSeqs = AcknowledgedSeqs()) throws {
        let descriptor = open(path, O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw ListenError(message: "cannot open the recording \(path): \(String(cString: strerror(errno)))")
        }
        var size = lseek(descriptor, 0, SEEK_END)
        if size > 0 {
            // A line cut by a crash or a full disk elsewhere stays a line of its own, never the start of the next one.
            var last: UInt8 = 0
            if pread(descriptor, &last, 1, size - 1) == 1, last != 0x0A {
                var newline: UInt8 = 0x0A
                guard FileDescriptor.write(descriptor, UnsafeRawBufferPointer(start: &newline, count: 1)) == 1 else {
                    FileDescriptor.close(descriptor)
                    throw ListenError(message: "cannot append to the recording \(path): \(String(cString: strerror(errno)))")
                }
                size += 1
            }
        }
        self.descriptor = descriptor
        self.acknowledged = acknowledged
        acknowledged.note(Self.highestSeqs(descriptor: descriptor, size: size))
        self.existingBytes = Int(max(0, size))
        self.written = max(0, size)
        self.bufferBytes = bufferBytes
        let thread = Thread { [self] in drainForever() }
        thread.name = "coordlens-recorder"
        thread.start()
    }

    /// Queues one complete line (without newline) belonging to `run`, whose session line is `header`; `seq` is the
    /// event's, nil for a session line.
    func write(_ line: UnsafeBufferPointer<UInt8>, run: String, header: [UInt8], seq: Int? = nil) {
        condition.lock()
        defer { condition.unlock() }
        guard !closing else { return }
        let isHeader = line.elementsEqual(header)
        let needsHeader = lastRun != run && !isHeader
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
        if !isHeader { queuedRuns[run, default: (header, 0)].lines += 1 }
        if let seq, seq > queuedSeqs[run, default: 0] { queuedSeqs[run] = seq }
        condition.signal()
    }

    /// Lines dropped since the last call because the disk could not keep up, the write error if writing stopped,
    /// and the note that it resumed.
    func takeProblems() -> (dropped: Int, failure: String?, resumed: String?) {
        condition.lock()
        defer { condition.unlock() }
        let fresh = dropped - droppedReported
        droppedReported = dropped
        defer { (failure, resumed) = (nil, nil) }
        return (fresh, failure, resumed)
    }

    /// Waits until every line queued before the call is written (or counted as refused by the disk), at most until
    /// `deadline`; true when it was.
    func flush(by deadline: Date) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while !queued.isEmpty || writing {
            if !condition.wait(until: deadline) { return false }
        }
        return true
    }

    /// Calls `body` (on the writing thread, or at once) when every line queued before the call has been written or
    /// counted as refused by the disk.
    func afterWriting(_ body: @escaping @Sendable () -> Void) {
        condition.lock()
        if queued.isEmpty, !writing {
            condition.unlock()
            body()
            return
        }
        waiting.append(body)
        condition.signal()
        condition.unlock()
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
        while true {
            condition.lock()
            while queued.isEmpty && !closing && waiting.isEmpty { condition.wait() }
            let called = waiting
            waiting.removeAll()
            let batch = queued
            let runs = queuedRuns
            let seqs = queuedSeqs
            queued.removeAll(keepingCapacity: batch.count < 1 << 20)
            queuedRuns.removeAll(keepingCapacity: true)
            queuedSeqs.removeAll(keepingCapacity: true)
            let endsWith = lastRun
            let last = closing
            writing = true
            condition.unlock()
            if !batch.isEmpty, record(batch, runs: runs, endingWith: endsWith) { acknowledged.note(seqs) }
            condition.lock()
            writing = false
            condition.broadcast()
            condition.unlock()
            called.forEach { $0() }
            if last {
                condition.lock()
                let rest = queued.isEmpty
                condition.unlock()
                if rest { break }
            }
        }
        FileDescriptor.close(descriptor)
        condition.lock()
        let called = waiting
        waiting.removeAll()
        condition.unlock()
        called.forEach { $0() }
        finished.signal()
    }

    /// Writes a batch, or while the disk refuses, counts it; the first batch the disk takes after a refusal starts
    /// with a `gap` line per run that lost lines. Retries a refusing disk at most once a second. True when written.
    private func record(_ batch: [UInt8], runs: [String: (header: [UInt8], lines: Int)], endingWith: String?) -> Bool {
        if !lost.isEmpty, Date().timeIntervalSince(lastAttempt) < 1 {
            count(runs)
            return false
        }
        lastAttempt = Date()
        var bytes: [UInt8] = []
        if !lost.isEmpty {
            for (_, gap) in lost.sorted(by: { $0.key < $1.key }) {
                bytes += gap.header + [0x0A]
                bytes += Array(#"{"event":"gap","count":\#(gap.lines),"by":"coordlens listen"}"#.utf8) + [0x0A]
            }
            // The queue names a run only when the run changes, so the batch may begin with lines of the run the last
            // batch written ended with; after the gap lines it must be named again.
            if !batch.starts(with: Array(#"{"event":"session""#.utf8)), let run = lastRunWritten,
                let header = runs[run]?.header ?? lost[run]?.header
            {
                bytes += header + [0x0A]
            }
        }
        bytes += batch
        if let error = writeWhole(bytes) {
            let first = lost.isEmpty
            count(runs)
            if first {
                condition.lock()
                failure = "recording stopped: \(error); lines are counted until the disk takes them again"
                condition.unlock()
            }
            return false
        }
        if !lost.isEmpty {
            let missing = lost.values.reduce(0) { $0 + $1.lines }
            let note =
                "recording resumed: \(missing) event\(missing == 1 ? "" : "s") of \(lost.count) run\(lost.count == 1 ? "" : "s") missing, the disk had refused them (a gap line in the recording says so)"
            lost.removeAll()
            condition.lock()
            resumed = note
            condition.unlock()
        }
        lastRunWritten = endingWith
        return true
    }

    /// The highest seq of each run in the first `size` bytes of the file: a chunk at a time, through the core's reader.
    private static func highestSeqs(descriptor: Int32, size: off_t) -> [String: Int] {
        var reader = StreamReader(maxLineBytes: 1 << 20)
        var highest: [String: Int] = [:]
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        var offset: off_t = 0
        func take(_ item: StreamReader.Item, _: UnsafeBufferPointer<UInt8>) {
            if case .record(let record, let run) = item, record.seq > highest[run, default: 0] { highest[run] = record.seq }
        }
        while offset < size {
            let count = chunk.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, offset) }
            guard count > 0 else { break }
            offset += off_t(count)
            chunk.withUnsafeBytes { reader.consume(UnsafeRawBufferPointer(rebasing: $0.prefix(count)), take) }
        }
        reader.finish(take)
        return highest
    }

    private func count(_ runs: [String: (header: [UInt8], lines: Int)]) {
        for (run, entry) in runs { lost[run, default: (entry.header, 0)].lines += entry.lines }
    }

    /// Writes all of `bytes` or, when the disk refuses part of them, cuts the file back to its last whole line;
    /// returns the error then.
    private func writeWhole(_ bytes: [UInt8]) -> String? {
        var offset = 0
        while offset < bytes.count {
            let count = bytes[offset...].withUnsafeBytes { FileDescriptor.write(descriptor, $0) }
            if count < 0 {
                if errno == EINTR { continue }
                let error = String(cString: strerror(errno))
                _ = ftruncate(descriptor, written)
                return error
            }
            offset += count
        }
        written += off_t(bytes.count)
        return nil
    }
}

/// The system calls by their C names, which the recorder's own `write` and `close` would otherwise shadow.
private enum FileDescriptor {
    static func write(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Int {
        #if canImport(Glibc)
        Glibc.write(descriptor, bytes.baseAddress, bytes.count)
        #else
        Darwin.write(descriptor, bytes.baseAddress, bytes.count)
        #endif
    }

    static func close(_ descriptor: Int32) {
        #if canImport(Glibc)
        _ = Glibc.close(descriptor)
        #else
        _ = Darwin.close(descriptor)
        #endif
    }
}
