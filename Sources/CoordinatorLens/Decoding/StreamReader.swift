/// Reads one wire-format stream as its chunks arrive: cuts it into lines, decodes them and says which run each
/// belongs to. Pure: the caller brings the bytes (from a file or a socket) and decides what to keep.
public struct StreamReader: Sendable {
    /// What one line of the stream turned out to be, with the run it belongs to.
    public enum Item: Hashable, Sendable {
        /// A session line: from here on lines belong to `header.run` (a run seen before continues).
        case session(SessionHeader, line: Int)
        /// Lines came before any session line: they are read as a session of app `unknown` under this invented
        /// header, and `note` says so. Comes right before the first such line's own item.
        case inventedSession(SessionHeader, note: Diagnostic)
        /// An event of `run`.
        case record(EventRecord, run: String)
        /// A line of `run` that could not be read; the diagnostic names the line and the problem.
        case malformed(Diagnostic, run: String)
        /// A line of `run` longer than the reader's limit, skipped up to its newline without being kept.
        case overlong(Diagnostic, run: String)
    }

    private var splitter: LineSplitter
    /// One interner for the whole stream: each distinct type name or call site is allocated once.
    private var strings = StringInterner()
    private let inventedRunPrefix: String
    /// The run the next line belongs to; nil before any line of the stream.
    package private(set) var run: String?

    /// A reader at the start of a stream. Lines longer than `maxLineBytes` are skipped and reported; lines before
    /// any session line go to a run named `<inventedRunPrefix>line-<N>`, N the first such line.
    public init(maxLineBytes: Int = .max, inventedRunPrefix: String = "") {
        splitter = LineSplitter(maxLineBytes: maxLineBytes)
        self.inventedRunPrefix = inventedRunPrefix
    }

    /// Lines handed out so far, over-long ones included.
    package var linesRead: Int { splitter.linesEmitted }

    /// Calls `body` with each item the complete lines of `chunk` make, and the line's bytes (without its newline; empty
    /// for an over-long line and an invented session).
    public mutating func consume(_ chunk: UnsafeRawBufferPointer, _ body: (Item, UnsafeBufferPointer<UInt8>) -> Void) {
        var splitter = self.splitter
        splitter.feed(chunk, onOverlong: { number in overlong(number, body) }, { line, number in take(line, number, body) })
        self.splitter = splitter
    }

    /// Ends the stream; a last line without a newline is read too.
    public mutating func finish(_ body: (Item, UnsafeBufferPointer<UInt8>) -> Void) {
        var splitter = self.splitter
        splitter.finish { line, number in take(line, number, body) }
        self.splitter = splitter
    }

    private mutating func take(
        _ line: UnsafeBufferPointer<UInt8>, _ number: Int, _ body: (Item, UnsafeBufferPointer<UInt8>) -> Void
    ) {
        switch EventDecoder.decode(line, lineNumber: number, strings: &strings) {
        case .blank:
            return
        case .session(let header, let at):
            run = header.run
            body(.session(header, line: at), line)
        case .record(let record):
            body(.record(record, run: currentRun(number, body)), line)
        case .malformed(let diagnostic):
            body(.malformed(diagnostic, run: currentRun(number, body)), line)
        }
    }

    private mutating func overlong(_ number: Int, _ body: (Item, UnsafeBufferPointer<UInt8>) -> Void) {
        let limit = splitter.maxLineBytes
        let diagnostic = Diagnostic(line: number, message: "line longer than \(limit) bytes: skipped up to its newline")
        body(.overlong(diagnostic, run: currentRun(number, body)), UnsafeBufferPointer(start: nil, count: 0))
    }

    private mutating func currentRun(_ number: Int, _ body: (Item, UnsafeBufferPointer<UInt8>) -> Void) -> String {
        if let run { return run }
        let header = SessionHeader(app: "unknown", run: "\(inventedRunPrefix)line-\(number)")
        let note = Diagnostic(line: number, message: "events before any session line: read as a session of unknown app")
        run = header.run
        body(.inventedSession(header, note: note), UnsafeBufferPointer(start: nil, count: 0))
        return header.run
    }
}
