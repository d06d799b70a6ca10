/// Turns decoded lines into a stream's items, knowing which run each line belongs to: the part of reading a stream
/// that depends on the lines before, so whichever thread decodes a stretch of lines carries it across that stretch.
struct RunTracker: Sendable {
    /// What invented runs are named after: `<prefix>line-<N>`, N the first line that needed one.
    let inventedRunPrefix: String
    /// The run the next line belongs to; nil before any line of the stream.
    private(set) var run: String?

    init(inventedRunPrefix: String) {
        self.inventedRunPrefix = inventedRunPrefix
    }

    /// Calls `emit` with the items line `number` makes (none for a blank line; an invented session first when the
    /// line comes before any session line), each with whether the line's bytes go with it.
    mutating func items(
        _ decoded: consuming DecodedLine, line number: Int, _ emit: (consuming StreamReader.Item, _ withBytes: Bool) -> Void
    ) {
        switch consume decoded {
        case .blank:
            return
        case .session(let header, let at):
            run = header.run
            emit(.session(header, line: at), true)
        case .record(let record):
            emit(.record(record, run: currentRun(number, emit)), true)
        case .malformed(let diagnostic):
            emit(.malformed(diagnostic, run: currentRun(number, emit)), true)
        }
    }

    /// `items`, never inlined, for the reader's second thread: inlined into its closure, the line was copied and
    /// destroyed rather than moved (its strings retained and released again, 14 % of that thread's instructions per
    /// event), while inlined into the reader's own thread it saves a call.
    @inline(never)
    mutating func itemsApart(
        _ decoded: consuming DecodedLine, line number: Int, _ emit: (consuming StreamReader.Item, _ withBytes: Bool) -> Void
    ) {
        items(decoded, line: number, emit)
    }

    /// The item of line `number`, skipped for being longer than `limit` bytes; its first bytes go with it.
    mutating func overlong(line number: Int, limit: Int, _ emit: (consuming StreamReader.Item, _ withBytes: Bool) -> Void) {
        let diagnostic = Diagnostic(line: number, message: "line longer than \(limit) bytes: skipped up to its newline")
        emit(.overlong(diagnostic, run: currentRun(number, emit)), true)
    }

    // Inlined into every line's item, with the invented session apart: out of line it was 1 % of `check`.
    @inline(__always)
    private mutating func currentRun(_ number: Int, _ emit: (consuming StreamReader.Item, _ withBytes: Bool) -> Void) -> String {
        if let run { return run }
        return inventRun(number, emit)
    }

    /// Names a run for line `number`, which comes before any session line, and says so.
    @inline(never)
    private mutating func inventRun(_ number: Int, _ emit: (consuming StreamReader.Item, _ withBytes: Bool) -> Void) -> String {
        let header = SessionHeader(app: "unknown", run: "\(inventedRunPrefix)line-\(number)")
        let note = Diagnostic(line: number, message: "events before any session line: read as a session of unknown app")
        run = header.run
        emit(.inventedSession(header, note: note), false)
        return header.run
    }
}
