import CoordinatorLens
import CoordinatorWire
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
    /// What connections and the writing thread share.
    private struct Queue {
        var queued: [UInt8] = []
        /// Lines queued per run since the last batch was taken, with each run's session line and highest seq.
        var queuedRuns: [String: (header: [UInt8], lines: Int)] = [:]
        var queuedSeqs: [String: Int] = [:]
        /// Whether the writing thread holds a batch it has not finished with.
        var writing = false
        /// Called once everything queued before they were added is written (`afterWriting`).
        var waiting: [@Sendable () -> Void] = []
        var lastRun: String?
        var closing = false
        /// The writing thread has closed the file and stopped.
        var closed = false
        var dropped = 0
        var droppedReported = 0
        var failure: String?
        var resumed: String?
    }

    /// What the writing thread takes from the queue at once.
    private struct Taken {
        var called: [@Sendable () -> Void]
        var batch: [UInt8]
        var runs: [String: (header: [UInt8], lines: Int)]
        var seqs: [String: Int]
        var endsWith: String?
        var last: Bool
    }

    private let queue = ConditionBox(Queue())
    private let bufferBytes: Int
    private let descriptor: Int32
    /// Bytes the file held when `listen` started.
    let existingBytes: Int
    /// Told each run's highest seq once its line is in the file.
    private let acknowledged: AcknowledgedSeqs

    // Owned by the writing thread: set before it starts, then touched by it alone.
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
                let newline: UInt8 = 0x0A
                guard withUnsafeBytes(of: newline, { FileDescriptor.write(descriptor, $0) }) == 1 else {
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
        let isHeader = line.elementsEqual(header)
        queue.withLockedValueWaking { queue -> (result: Void, wake: Bool) in
            guard !queue.closing else { return ((), false) }
            let needsHeader = queue.lastRun != run && !isHeader
            let size = line.count + 1 + (needsHeader ? header.count + 1 : 0)
            guard queue.queued.count + size <= bufferBytes else {
                queue.dropped += 1
                return ((), false)
            }
            // The writing thread sleeps only on an empty queue: the first line wakes it, the rest join the batch.
            let wake = queue.queued.isEmpty
            if needsHeader {
                queue.queued.append(contentsOf: header)
                queue.queued.append(0x0A)
            }
            queue.lastRun = run
            queue.queued.append(contentsOf: line)
            queue.queued.append(0x0A)
            if !isHeader { queue.queuedRuns[run, default: (header, 0)].lines += 1 }
            if let seq, seq > queue.queuedSeqs[run, default: 0] { queue.queuedSeqs[run] = seq }
            return ((), wake)
        }
    }

    /// Lines dropped since the last call because the disk could not keep up, the write error if writing stopped,
    /// and the note that it resumed.
    func takeProblems() -> (dropped: Int, failure: String?, resumed: String?) {
        queue.withLockedValue { queue in
            let fresh = queue.dropped - queue.droppedReported
            queue.droppedReported = queue.dropped
            defer { (queue.failure, queue.resumed) = (nil, nil) }
            return (fresh, queue.failure, queue.resumed)
        }
    }

    /// Waits until every line queued before the call is written (or counted as refused by the disk), at most until
    /// `deadline`; true when it was.
    func flush(by deadline: Date) -> Bool {
        queue.wait { queue in
            if queue.queued.isEmpty && !queue.writing { return .found(true) }
            return Date() < deadline ? .waiting(until: deadline) : .found(false)
        }
    }

    /// Calls `body` (on the writing thread, or at once) when every line queued before the call has been written or
    /// counted as refused by the disk.
    func afterWriting(_ body: @escaping @Sendable () -> Void) {
        let now = queue.withLockedValue { queue in
            guard queue.queued.isEmpty, !queue.writing else {
                queue.waiting.append(body)
                return false
            }
            return true
        }
        if now { body() }
    }

    /// Writes what is queued, then closes the file; waits at most until `deadline`. Returns whether all was written.
    @discardableResult
    func close(by deadline: Date) -> Bool {
        queue.withLockedValue { $0.closing = true }
        return queue.wait { queue in
            if queue.closed { return .found(true) }
            return Date() < deadline ? .waiting(until: deadline) : .found(false)
        }
    }

    private func drainForever() {
        while true {
            let taken = queue.wait { queue -> ConditionBox<Queue>.Look<Taken> in
                guard !queue.queued.isEmpty || queue.closing || !queue.waiting.isEmpty else { return .waiting(until: nil) }
                defer {
                    queue.waiting.removeAll()
                    queue.queued.removeAll(keepingCapacity: queue.queued.count < 1 << 20)
                    queue.queuedRuns.removeAll(keepingCapacity: true)
                    queue.queuedSeqs.removeAll(keepingCapacity: true)
                    queue.writing = true
                }
                return .found(
                    Taken(
                        called: queue.waiting, batch: queue.queued, runs: queue.queuedRuns, seqs: queue.queuedSeqs, endsWith: queue.lastRun,
                        last: queue.closing
                    ))
            }
            if !taken.batch.isEmpty, record(taken.batch, runs: taken.runs, endingWith: taken.endsWith) { acknowledged.note(taken.seqs) }
            let rest = queue.withLockedValue { queue in
                queue.writing = false
                return queue.queued.isEmpty
            }
            taken.called.forEach { $0() }
            if taken.last, rest { break }
        }
        FileDescriptor.close(descriptor)
        let called = queue.withLockedValue { queue in
            defer { queue.waiting.removeAll() }
            return queue.waiting
        }
        called.forEach { $0() }
        queue.withLockedValue { $0.closed = true }
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
                queue.withLockedValue { $0.failure = "recording stopped: \(error); lines are counted until the disk takes them again" }
            }
            return false
        }
        if !lost.isEmpty {
            let missing = lost.values.reduce(0) { $0 + $1.lines }
            let note =
                "recording resumed: \(missing) event\(missing == 1 ? "" : "s") of \(lost.count) run\(lost.count == 1 ? "" : "s") missing, the disk had refused them (a gap line in the recording says so)"
            lost.removeAll()
            queue.withLockedValue { $0.resumed = note }
        }
        lastRunWritten = endingWith
        return true
    }

    /// The highest seq of each run in the first `size` bytes of the file: a chunk at a time, through the core's reader.
    private static func highestSeqs(descriptor: Int32, size: off_t) -> [String: Int] {
        var reader = StreamReader(maxLineBytes: 1 << 20)
        // Only seqs are wanted: the file's string ids go with the reader.
        reader.idScope = IDSpellingScope()
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
