/// One session as read from a recording: its header and its lines in order, for replay up to any point.
public struct SessionLog: Sendable {
    /// A line of the session: an event, or a line that could not be read.
    public enum Entry: Hashable, Sendable {
        case record(EventRecord)
        case malformed(Diagnostic)
        /// Unreadable lines past the session's warning limit, in a row: counted, not kept, as a replay would only
        /// count them too, so a flood of garbage lines costs one entry per run of them.
        case unkept(count: Int)
    }

    /// The session line that opened it; for events before any session line, an invented one of app `unknown`.
    public var header: SessionHeader
    /// Its event and unreadable lines, in input order.
    public var entries: [Entry] = []
    /// Problems that belong to the session but to no line of it (for example a header that had to be invented).
    public var notes: [Diagnostic] = []
    /// The limits a replay keeps to, such as how many warnings its tree keeps.
    package var limits: InputLimits
    /// The session's tree after its last line, when its recording kept that instead of `entries`.
    var treeAtEnd: SessionTree?
    /// Holds the string ids of its entries when they would otherwise be freed (a live session's); every replay's tree
    /// holds them too.
    package var idScope: IDSpellingScope?

    /// An empty session for `header`; entries and notes are appended as the input is read.
    package init(header: SessionHeader, limits: InputLimits = .default) {
        self.header = header
        self.limits = limits
    }

    /// Replays the session up to `cut`; returns the tree and the time to evaluate it at. The one walk of a log:
    /// snapshots, cuts, the page's time travel and `growth` all replay through here. `visit`, when given, sees the
    /// tree just before and just after each event is applied (`applied` false, then true).
    package func replay(
        until cut: Cut = .end, visit: ((_ tree: SessionTree, _ record: EventRecord, _ applied: Bool) -> Void)? = nil
    ) throws(CutError) -> (tree: SessionTree, evaluatedAt: Double) {
        if let treeAtEnd {
            guard cut == .end, visit == nil else {
                throw CutError(
                    message: "run \(header.run) was read for its end only: \(visit == nil ? "a cut" : "this") needs a recording that keeps every line")
            }
            return (treeAtEnd, treeAtEnd.lastTime)
        }
        var tree = SessionTree(header: header, limits: limits)
        tree.idScope = idScope
        notes.forEach { tree.report($0) }
        for entry in entries {
            switch entry {
            case .malformed(let diagnostic):
                tree.report(diagnostic)
            case .unkept(let count):
                tree.countUnkept(count)
            case .record(let record):
                switch cut {
                case .end: break
                case .seq(let seq): if record.seq > seq { return (tree, tree.lastTime) }
                case .time(let time): if record.time > time { return (tree, time) }
                case .mark: break
                }
                visit?(tree, record, false)
                tree.apply(record)
                visit?(tree, record, true)
                if case .mark(let wanted) = cut, case .mark(let label) = record.event, label == wanted {
                    return (tree, record.time)
                }
            }
        }
        switch cut {
        case .end, .seq: return (tree, tree.lastTime)
        case .time(let time): return (tree, time)
        case .mark(let label):
            let known = tree.marks.map(\.label)
            throw CutError(
                message: "no mark \"\(label)\" in run \(header.run)" + (known.isEmpty ? " (it has no marks)" : " (marks: \(known.joined(separator: ", ")))"))
        }
    }

    /// Replays up to `cut` and judges the tree there, with `limits` beside the ones the app declared.
    public func snapshot(
        until cut: Cut = .end, grace: Double = VerdictRules.defaultGrace, limits: [AliveLimit] = []
    ) throws(CutError) -> Snapshot {
        let (tree, evaluatedAt) = try replay(until: cut)
        return tree.snapshot(at: evaluatedAt, grace: grace, limits: limits)
    }
}

/// The point in a session a snapshot is taken at.
public enum Cut: Hashable, Sendable {
    /// After the last event.
    case end
    /// After the event with this seq.
    case seq(Int)
    /// At this many seconds since the session started.
    case time(Double)
    /// Right after the first mark with this label.
    case mark(String)
}

/// A cut that does not exist in the session.
public struct CutError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Names the missing mark and lists the marks the run does have.
    public var message: String
    public var description: String { message }
}

/// All sessions in one input, in the order they first appear.
public struct Recording: Sendable {
    /// What a recording keeps of each session.
    public enum Retention: Sendable {
        /// Every line, so a session can be replayed up to any cut.
        case everyLine
        /// Only each session's tree as it stands after its last line, built while reading: memory grows with the
        /// coordinators, not with the events, and the sessions can be replayed up to `.end` only.
        case treeAtEnd
    }

    /// One log per run id; a repeated session line continues its run rather than adding one.
    public private(set) var sessions: [SessionLog] = []
    /// Lines read so far, blank and unreadable ones included.
    package var linesRead: Int { reader.linesRead }
    /// The reader's `concurrentRegionBytes`: from how many bytes of whole lines a chunk is decoded on a second thread.
    package var concurrentRegionBytes: Int {
        get { reader.concurrentRegionBytes }
        set { reader.concurrentRegionBytes = newValue }
    }
    /// How many regions of the input a second thread decoded.
    package var regionsDecodedElsewhere: Int { reader.regionsDecodedElsewhere }
    /// Lines that were a session line or an event: an input with none of them holds nothing to judge.
    package private(set) var usableLines = 0
    /// Lines that were an event: an input whose lines all failed but its session lines holds nothing to judge either.
    package private(set) var eventLines = 0
    /// The first unreadable line, to say why an input with no usable line was rejected.
    package private(set) var firstProblem: Diagnostic?
    /// The limits it reads with: line length here, warnings per session in each session's replay.
    public let limits: InputLimits
    /// What it keeps of each session.
    public let retention: Retention
    private var sessionIndex: [String: Int] = [:]
    private var lastRun: (run: String, index: Int)?
    private var reader: StreamReader
    /// Unreadable lines so far, by session index.
    private var malformedLines: [Int: Int] = [:]
    /// Per session index: its first unreadable line, and whether every later one failed with the same message.
    private var failures: [Int: (first: Diagnostic, allAlike: Bool)] = [:]
    /// Sessions with at least one event line read.
    private var sessionsWithEvents = Set<Int>()
    /// Sessions with an event read so far, so a malformed line need not search the session's lines for one.
    private var recordsSeen = Set<Int>()
    /// The session of the latest event, already in `recordsSeen`.
    private var lastRecordSession: Int?

    /// An empty recording, to be fed with `consume` and closed with `finish`.
    public init(limits: InputLimits = .default, keeping retention: Retention = .everyLine) {
        self.limits = limits
        self.retention = retention
        reader = StreamReader(maxLineBytes: limits.maximumLineBytes)
    }

    /// Reads a whole input at once.
    public init(bytes: some Collection<UInt8>, limits: InputLimits = .default, keeping retention: Retention = .everyLine) {
        self.init(limits: limits, keeping: retention)
        // Read in place when the bytes are contiguous (an array, Data): a copy would double a large file's memory.
        let readInPlace = bytes.withContiguousStorageIfAvailable { consume(UnsafeRawBufferPointer($0)) } != nil
        if !readInPlace { Array(bytes).withUnsafeBytes { consume($0) } }
        finish()
    }

    /// Feeds the next chunk of the input.
    public mutating func consume(_ chunk: UnsafeRawBufferPointer) {
        var reader = self.reader
        reader.consume(chunk) { item, _ in take(item) }
        self.reader = reader
    }

    /// Ends the input; a last line without a newline is read too.
    public mutating func finish() {
        var reader = self.reader
        reader.finish { item, _ in take(item) }
        self.reader = reader
        summariseFailures()
    }

    /// A session none of whose event lines could be read gets one warning that says so first, rather than only a
    /// thousand alike ones and "no coordinators": a producer whose every line fails must not look like a quiet run.
    private mutating func summariseFailures() {
        for (index, failure) in failures.sorted(by: { $0.key < $1.key }) where !sessionsWithEvents.contains(index) {
            let count = malformedLines[index] ?? 0
            let lines = count == 1 ? "its only event line" : "all \(NumberText.grouped(count)) of its event lines"
            let how = failure.allAlike && count > 1 ? "every one the same way: \(failure.first.message)" : "first: \(failure.first.message)"
            // At the first failed line, so editors and CI logs link to it like to any other warning.
            sessions[index].notes.append(Diagnostic(line: failure.first.line, message: "no event could be used: \(lines) failed to read, \(how)"))
        }
    }

    /// Why the input holds nothing to judge, at its first bad line (0 when none); nil when it can be judged. An input
    /// with no session line and no event, or whose lines failed but for session lines, cannot.
    public var unusable: Diagnostic? {
        if usableLines == 0 {
            guard linesRead > 0 else { return Diagnostic(line: 0, message: "no session line and no event to read: the input is empty") }
            let lines = linesRead == 1 ? "its only line" : "all \(NumberText.grouped(linesRead)) lines"
            let how = firstProblem.map { "failed to read as wire format v1: \($0.message)" } ?? "are blank"
            return Diagnostic(line: firstProblem?.line ?? 0, message: "no session line and no event to read: \(lines) \(how)")
        }
        guard eventLines == 0, let firstProblem else { return nil }
        let summary = sessions.lazy.flatMap(\.notes).first { $0.message.hasPrefix("no event could be used") }
        return Diagnostic(line: firstProblem.line, message: summary?.message ?? "no event could be used: \(firstProblem.message)")
    }

    /// The session with this run id.
    public func session(run: String) -> SessionLog? {
        sessionIndex[run].map { sessions[$0] }
    }

    private mutating func take(_ item: StreamReader.Item) {
        switch item {
        case .session(let header, _):
            usableLines += 1
            // A run seen before continues: a recorder interleaving several apps repeats the header when it switches.
            if sessionIndex[header.run] == nil {
                sessions.append(newLog(header))
                sessionIndex[header.run] = sessions.count - 1
            }
        case .inventedSession(let header, let note):
            var log = newLog(header)
            log.notes.append(note)
            log.treeAtEnd?.report(note)
            sessions.append(log)
            sessionIndex[header.run] = sessions.count - 1
        case .record(let record, let run):
            usableLines += 1
            eventLines += 1
            let index = index(of: run)
            // Once per stretch of one session's events, not a set insert per event.
            if index != lastRecordSession {
                if failures[index] != nil { sessionsWithEvents.insert(index) }
                recordsSeen.insert(index)
                lastRecordSession = index
            }
            if retention == .treeAtEnd {
                sessions[index].treeAtEnd!.apply(record)
            } else {
                sessions[index].entries.append(.record(record))
            }
        case .malformed(let diagnostic, let run), .overlong(let diagnostic, let run):
            if firstProblem == nil { firstProblem = diagnostic }
            let index = index(of: run)
            if let failure = failures[index] {
                if failure.allAlike, failure.first.message != diagnostic.message { failures[index]!.allAlike = false }
            } else if recordsSeen.contains(index) {
                sessionsWithEvents.insert(index)
            } else {
                failures[index] = (diagnostic, true)
            }
            keepOrCount(diagnostic, in: index)
        }
    }

    /// The position of `run`'s session; runs come in long stretches, so the last one found is tried first, before
    /// hashing the run id.
    private mutating func index(of run: String) -> Int {
        if let last = lastRun, last.run == run { return last.index }
        let index = sessionIndex[run]!
        lastRun = (run, index)
        return index
    }

    private func newLog(_ header: SessionHeader) -> SessionLog {
        var log = SessionLog(header: header, limits: limits)
        if retention == .treeAtEnd { log.treeAtEnd = SessionTree(header: header, limits: limits) }
        return log
    }

    /// The first `maximumWarnings` unreadable lines are all a replay can keep, whatever other warnings it meets first;
    /// the rest are counted, one entry per run of them.
    private mutating func keepOrCount(_ diagnostic: Diagnostic, in index: Int) {
        malformedLines[index, default: 0] += 1
        // What a replay would do with the entry, done now.
        if retention == .treeAtEnd {
            if malformedLines[index]! > limits.maximumWarnings {
                sessions[index].treeAtEnd!.countUnkept(1)
            } else {
                sessions[index].treeAtEnd!.report(diagnostic)
            }
            return
        }
        guard malformedLines[index]! > limits.maximumWarnings else {
            sessions[index].entries.append(.malformed(diagnostic))
            return
        }
        if case .unkept(let count) = sessions[index].entries.last {
            sessions[index].entries[sessions[index].entries.count - 1] = .unkept(count: count + 1)
        } else {
            sessions[index].entries.append(.unkept(count: 1))
        }
    }
}
