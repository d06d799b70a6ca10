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
    public var limits: InputLimits

    /// An empty session for `header`; entries and notes are appended as the input is read.
    public init(header: SessionHeader, limits: InputLimits = .default) {
        self.header = header
        self.limits = limits
    }

    /// Replays the session up to `cut`; returns the tree and the time to evaluate it at.
    public func replay(until cut: Cut = .end) throws(CutError) -> (tree: SessionTree, evaluatedAt: Double) {
        var tree = SessionTree(header: header, limits: limits)
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
                tree.apply(record)
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
            throw CutError(message: "no mark \"\(label)\" in run \(header.run)" + (known.isEmpty ? " (it has no marks)" : " (marks: \(known.joined(separator: ", ")))"))
        }
    }

    /// Replays up to `cut` and judges the tree there.
    public func snapshot(until cut: Cut = .end, grace: Double = VerdictRules.defaultGrace) throws(CutError) -> Snapshot {
        let (tree, evaluatedAt) = try replay(until: cut)
        return tree.snapshot(at: evaluatedAt, grace: grace)
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
    /// One log per run id; a repeated session line continues its run rather than adding one.
    public private(set) var sessions: [SessionLog] = []
    private var sessionIndex: [String: Int] = [:]
    private var current: Int?
    private var splitter: LineSplitter
    /// Unreadable lines so far, by session index.
    private var malformedLines: [Int: Int] = [:]
    /// The limits it reads with: line length here, warnings per session in each session's replay.
    public let limits: InputLimits

    /// An empty recording, to be fed with `consume` and closed with `finish`.
    public init(limits: InputLimits = .default) {
        self.limits = limits
        self.splitter = LineSplitter(maximumLineBytes: limits.maximumLineBytes)
    }

    /// Reads a whole input at once.
    public init(bytes: some Collection<UInt8>, limits: InputLimits = .default) {
        self.init(limits: limits)
        let contiguous = Array(bytes)
        contiguous.withUnsafeBytes { consume($0) }
        finish()
    }

    /// Feeds the next chunk of the input.
    public mutating func consume(_ chunk: UnsafeRawBufferPointer) {
        var splitter = self.splitter
        let limit = splitter.maximumLineBytes
        splitter.feed(chunk) { line, number in
            take(EventDecoder.decode(line, lineNumber: number), line: number)
        } tooLong: { _, number in
            take(EventDecoder.tooLong(lineNumber: number, limit: limit), line: number)
        }
        self.splitter = splitter
    }

    /// Ends the input; a last line without a newline is read too.
    public mutating func finish() {
        var splitter = self.splitter
        splitter.finish { line, number in take(EventDecoder.decode(line, lineNumber: number), line: number) }
        self.splitter = splitter
    }

    /// The session with this run id.
    public func session(run: String) -> SessionLog? {
        sessionIndex[run].map { sessions[$0] }
    }

    private mutating func take(_ decoded: DecodedLine, line: Int) {
        switch decoded {
        case .blank:
            return
        case .session(let header, _):
            // A run seen before continues: a recorder interleaving several apps repeats the header when it switches.
            if let index = sessionIndex[header.run] {
                current = index
            } else {
                sessions.append(SessionLog(header: header, limits: limits))
                current = sessions.count - 1
                sessionIndex[header.run] = current
            }
        case .record(let record):
            sessions[currentOrImplicit(line: line)].entries.append(.record(record))
        case .malformed(let diagnostic):
            let index = currentOrImplicit(line: line)
            malformedLines[index, default: 0] += 1
            // The first `maximumWarnings` are all a replay can keep, whatever other warnings it meets first.
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

    private mutating func currentOrImplicit(line: Int) -> Int {
        if let current { return current }
        var log = SessionLog(header: SessionHeader(app: "unknown", run: "line-\(line)"), limits: limits)
        log.notes.append(Diagnostic(line: line, message: "events before any session line: read as a session of unknown app"))
        sessions.append(log)
        let index = sessions.count - 1
        sessionIndex[log.header.run] = index
        current = index
        return index
    }
}
