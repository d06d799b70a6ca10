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
/// Connections hand lines over through a queue of at most `bufferBytes`; a line that does not fit is dropped, told to
/// its hook as not kept, and counted in a `gap` line once the queue has room again, so a slow disk never stalls the
/// event loop nor grows memory.
/// Lines from several apps interleave, so before a line of a different run than the last one written, that run's
/// session line is written again: a reader continues a run it has seen instead of starting a new session.
///
/// An existing file is never emptied: the recording is appended to it, after a newline if its last line was cut, and
/// every run's first line there is its session line, so earlier runs stay whole and a run that continues (its hook
/// reconnected to a restarted `listen`) reads as one session. The file only ever holds whole lines: a write the disk
/// refuses is cut back to the last whole line, and the lines of it are counted per run and told to their hooks as not
/// kept; once the disk takes lines again (tried once a second, whether or not lines arrive, and once more on closing),
/// each run that lost some gets a `gap` line saying how many, and `listen` says so too. A line's seq is acknowledged
/// only once the line is in the file.
final class StreamRecorder: @unchecked Sendable {
    /// What connections and the writing thread share.
    private struct Queue {
        var queued: [UInt8] = []
        /// Lines queued per run since the last batch was taken, with each run's session line, and the events its
        /// queued `gap` lines stand for.
        var queuedRuns: [String: Lines] = [:]
        /// The seqs of each run's lines in the queue.
        var queuedSeqs: [String: ClosedRange<Int>] = [:]
        /// Lines the full queue turned away per run, not yet in a `gap` line: one goes into the queue before the run's
        /// next line that fits.
        var overflow: [String: Lines] = [:]
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

    /// Lines of one run: its session line, and how many events.
    private struct Lines {
        var header: [UInt8]
        var lines = 0
    }

    /// What the writing thread takes from the queue at once.
    private struct Taken {
        var called: [@Sendable () -> Void]
        var batch: [UInt8]
        var runs: [String: Lines]
        var seqs: [String: ClosedRange<Int>]
        var endsWith: String?
        var last: Bool
    }

    /// Why a hook is told its lines were not kept when the queue for the disk was full.
    static let queueFull = "the recording's queue was full (--record-buffer-bytes): the disk did not keep up"

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
    /// Lines the disk refused (or the full queue turned away), per run, not yet accounted for in the file.
    private var lost: [String: Lines] = [:]
    /// Why the disk last refused a write.
    private var lastError = ""
    private var lastAttempt = Date.distantPast
    /// The run whose line was written last, so a batch after a gap starts with its own session line, and that line.
    private var lastRunWritten: String?
    private var lastHeaderWritten: [UInt8]?

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
        JobThread(name: "coordlens-recorder").enqueue { [self] in drainForever() }
    }

    /// Queues one complete line (without newline) belonging to `run`, whose session line is `header`; `seq` is the
    /// event's, nil for a session line.
    func write(_ line: UnsafeBufferPointer<UInt8>, run: String, header: [UInt8], seq: Int? = nil) {
        let isHeader = line.elementsEqual(header)
        let kept = queue.withLockedValueWaking { queue -> (result: Bool, wake: Bool) in
            guard !queue.closing else { return (true, false) }
            let gap = queue.overflow[run].map { Self.gapLine(count: $0.lines, why: Self.queueFull) } ?? []
            let needsHeader = queue.lastRun != run && !isHeader
            let size = line.count + 1 + (needsHeader ? header.count + 1 : 0) + (gap.isEmpty ? 0 : gap.count + 1)
            guard queue.queued.count + size <= bufferBytes else {
                queue.dropped += 1
                if !isHeader { queue.overflow[run, default: Lines(header: header)].lines += 1 }
                return (false, false)
            }
            // The writing thread sleeps only on an empty queue: the first line wakes it, the rest join the batch.
            let wake = queue.queued.isEmpty
            if needsHeader {
                queue.queued.append(contentsOf: header)
                queue.queued.append(0x0A)
            }
            if !gap.isEmpty {
                queue.queued.append(contentsOf: gap)
                queue.queued.append(0x0A)
                queue.queuedRuns[run, default: Lines(header: header)].lines += queue.overflow.removeValue(forKey: run)?.lines ?? 0
            }
            queue.lastRun = run
            queue.queued.append(contentsOf: line)
            queue.queued.append(0x0A)
            if !isHeader { queue.queuedRuns[run, default: Lines(header: header)].lines += 1 }
            if let seq { queue.queuedSeqs[run] = queue.queuedSeqs[run].map { min($0.lowerBound, seq)...max($0.upperBound, seq) } ?? seq...seq }
            return (true, wake)
        }
        if !kept, let seq { acknowledged.refuse(seq...seq, of: run, why: Self.queueFull) }
    }

    /// Queues a `gap` line for `run` in the place of `count` events `listen` did not keep, saying `why`; a full queue
    /// counts them in the next gap line instead.
    func writeGap(run: String, header: [UInt8], count: Int, why: String) {
        let gap = Self.gapLine(count: count, why: why)
        gap.withUnsafeBufferPointer { line in
            queue.withLockedValueWaking { queue -> (result: Void, wake: Bool) in
                guard !queue.closing else { return ((), false) }
                let needsHeader = queue.lastRun != run
                let size = line.count + 1 + (needsHeader ? header.count + 1 : 0)
                guard queue.queued.count + size <= bufferBytes else {
                    queue.overflow[run, default: Lines(header: header)].lines += count
                    return ((), false)
                }
                let wake = queue.queued.isEmpty
                if needsHeader {
                    queue.queued.append(contentsOf: header)
                    queue.queued.append(0x0A)
                }
                queue.lastRun = run
                queue.queued.append(contentsOf: line)
                queue.queued.append(0x0A)
                // Should the disk refuse the batch, the events this line stands for are missing all the same.
                queue.queuedRuns[run, default: Lines(header: header)].lines += count
                return ((), wake)
            }
        }
    }

    /// Lines the full queue turned away since the batch before end this one, in a `gap` line per run (the queue
    /// empties as it is taken, so there is room again).
    private static func appendOverflowGaps(_ queue: inout Queue) {
        for (run, entry) in queue.overflow.sorted(by: { $0.key < $1.key }) where entry.lines > 0 {
            if queue.lastRun != run {
                queue.queued.append(contentsOf: entry.header)
                queue.queued.append(0x0A)
            }
            queue.queued.append(contentsOf: gapLine(count: entry.lines, why: queueFull))
            queue.queued.append(0x0A)
            queue.queuedRuns[run, default: Lines(header: entry.header)].lines += entry.lines
            queue.lastRun = run
        }
        queue.overflow.removeAll()
    }

    /// A `gap` line: the recording misses `count` events of the session here (docs/PROTOCOL.md, "The recording").
    static func gapLine(count: Int, why: String?) -> [UInt8] {
        var line = Array(#"{"event":"gap","count":\#(count),"by":"coordlens listen""#.utf8)
        if let why {
            line += Array(#","why":"#.utf8)
            line += JSONString.quoted(why.utf8)
        }
        line.append(UInt8(ascii: "}"))
        return line
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
            // While lines are missing from the file, the disk is tried again once a second even with nothing queued, so
            // a gap line is written once it takes lines again, after the stream ended too.
            let retry = lost.isEmpty ? nil : lastAttempt.addingTimeInterval(1)
            let taken = queue.wait { queue -> ConditionBox<Queue>.Look<Taken> in
                guard !queue.queued.isEmpty || queue.closing || !queue.waiting.isEmpty || retry.map({ Date() >= $0 }) == true else {
                    return .waiting(until: retry)
                }
                defer {
                    queue.waiting.removeAll()
                    queue.queued.removeAll(keepingCapacity: queue.queued.count < 1 << 20)
                    queue.queuedRuns.removeAll(keepingCapacity: true)
                    queue.queuedSeqs.removeAll(keepingCapacity: true)
                    queue.writing = true
                }
                Self.appendOverflowGaps(&queue)
                return .found(
                    Taken(
                        called: queue.waiting, batch: queue.queued, runs: queue.queuedRuns, seqs: queue.queuedSeqs, endsWith: queue.lastRun,
                        last: queue.closing
                    ))
            }
            if !taken.batch.isEmpty {
                if record(taken.batch, runs: taken.runs, endingWith: taken.endsWith) {
                    acknowledged.note(taken.seqs.mapValues(\.upperBound))
                } else {
                    // Told to the hooks before any later batch's acknowledgement passes these seqs.
                    for (run, seqs) in taken.seqs { acknowledged.refuse(seqs, of: run, why: "the disk refused the recording's writes: \(lastError)") }
                }
            } else if !lost.isEmpty, taken.last || Date() >= lastAttempt.addingTimeInterval(1) {
                // No line came: the gap lines alone, once the disk takes them; on closing, one last try.
                _ = record([], runs: [:], endingWith: lastRunWritten, now: true)
            }
            let rest = queue.withLockedValue { queue in
                queue.writing = false
                return queue.queued.isEmpty
            }
            taken.called.forEach { $0() }
            if taken.last, rest {
                if !lost.isEmpty, !taken.batch.isEmpty { _ = record([], runs: [:], endingWith: lastRunWritten, now: true) }
                if !lost.isEmpty { noteUnwrittenGaps() }
                break
            }
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
    /// with a `gap` line per run that lost lines. Retries a refusing disk at most once a second (`now`: at once). True
    /// when written.
    private func record(_ batch: [UInt8], runs: [String: Lines], endingWith: String?, now: Bool = false) -> Bool {
        if !lost.isEmpty, !now, Date().timeIntervalSince(lastAttempt) < 1 {
            count(runs)
            return false
        }
        lastAttempt = Date()
        var bytes: [UInt8] = []
        if !lost.isEmpty {
            for (_, gap) in lost.sorted(by: { $0.key < $1.key }) {
                bytes += gap.header + [0x0A]
                bytes += Self.gapLine(count: gap.lines, why: nil) + [0x0A]
            }
            // The queue names a run only when the run changes, so the batch may begin with lines of the run the last
            // batch written ended with; after the gap lines it must be named again.
            if !batch.starts(with: Array(#"{"event":"session""#.utf8)), let run = lastRunWritten,
                let header = runs[run]?.header ?? lost[run]?.header ?? lastHeaderWritten
            {
                bytes += header + [0x0A]
            }
        }
        bytes += batch
        if let error = writeWhole(bytes) {
            let first = lost.isEmpty
            lastError = error
            count(runs)
            if first {
                queue.withLockedValue {
                    $0.failure = "recording stopped: \(error); lines are counted, and their hooks told they were not kept, until the disk takes them again"
                }
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
        if endingWith != lastRunWritten { lastHeaderWritten = nil }
        if let endingWith, let header = runs[endingWith]?.header { lastHeaderWritten = header }
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

    private func count(_ runs: [String: Lines]) {
        for (run, entry) in runs where entry.lines > 0 { lost[run, default: Lines(header: entry.header)].lines += entry.lines }
    }

    /// The recording closes with lines missing and the disk still refusing their gap lines: said in a status line.
    private func noteUnwrittenGaps() {
        let missing = lost.values.reduce(0) { $0 + $1.lines }
        let note =
            "recording closed with \(missing) event\(missing == 1 ? "" : "s") of \(lost.count) run\(lost.count == 1 ? "" : "s") missing and no gap line for them: the disk still refused writes (\(lastError))"
        queue.withLockedValue { $0.failure = note }
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
