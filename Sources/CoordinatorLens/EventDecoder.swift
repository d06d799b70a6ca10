/// What one input line turned out to be.
public enum DecodedLine: Hashable, Sendable {
    case session(SessionHeader, line: Int)
    case record(EventRecord)
    /// A line that could not be read as an event; the message names the problem.
    case malformed(Diagnostic)
    /// An empty or whitespace-only line, which NDJSON allows and which carries nothing.
    case blank
}

/// Decodes wire-format v1 lines into events.
public enum EventDecoder {
    /// Decodes one line (without its newline); `lineNumber` goes into records and diagnostics.
    public static func decode(_ line: UnsafeBufferPointer<UInt8>, lineNumber: Int) -> DecodedLine {
        if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { return .blank }
        do {
            return try decodeObject(line, lineNumber: lineNumber)
        } catch let failure as JSONSyntaxError {
            return .malformed(Diagnostic(line: lineNumber, message: "malformed JSON at byte \(failure.offset + 1): \(failure.message)"))
        } catch let failure as FieldError {
            return .malformed(Diagnostic(line: lineNumber, message: failure.message))
        } catch {
            return .malformed(Diagnostic(line: lineNumber, message: "\(error)"))
        }
    }

    /// Decodes one line given as text.
    public static func decode(_ line: String, lineNumber: Int) -> DecodedLine {
        var copy = line
        return copy.withUTF8 { decode($0, lineNumber: lineNumber) }
    }

    private struct FieldError: Error {
        var message: String
    }

    private static func decodeObject(_ line: UnsafeBufferPointer<UInt8>, lineNumber: Int) throws -> DecodedLine {
        var scanner = JSONScanner(line)
        try scanner.begin()
        var fields = Fields()
        while let key = try scanner.nextKey() {
            switch key {
            case "event": fields.event = try scanner.readValue()
            case "seq": fields.seq = try scanner.readValue()
            case "t": fields.t = try scanner.readValue()
            case "id": fields.id = try scanner.readValue()
            case "type": fields.type = try scanner.readValue()
            case "parent": fields.parent = try scanner.readValue()
            case "screen": fields.screen = try scanner.readValue()
            case "label": fields.label = try scanner.readValue()
            case "count": fields.count = try scanner.readValue()
            case "file": fields.file = try scanner.readValue()
            case "line": fields.line = try scanner.readValue()
            case "function": fields.function = try scanner.readValue()
            case "app": fields.app = try scanner.readValue()
            case "run": fields.run = try scanner.readValue()
            case "pid": fields.pid = try scanner.readValue()
            case "v": fields.version = try scanner.readValue()
            default: _ = try scanner.readValue()
            }
        }
        guard let kindValue = fields.event else { throw FieldError(message: "missing \"event\"") }
        guard case .string(let kind) = kindValue else {
            throw FieldError(message: "\"event\" must be a string, not \(kindValue.typeName)")
        }
        if kind == "session" { return .session(try fields.header(), line: lineNumber) }

        let seq = try fields.require("seq", fields.seq, as: Int.self)
        let time = try fields.require("t", fields.t, as: Double.self)
        guard time >= 0, time.isFinite else { throw FieldError(message: "\"t\" must be a non-negative number of seconds") }
        let event: Event
        switch kind {
        case "add":
            event = .add(
                id: try fields.require("id", fields.id, as: Int.self),
                type: try fields.require("type", fields.type, as: String.self),
                parent: try fields.optional("parent", fields.parent, as: Int.self)
            )
        case "remove":
            event = .remove(
                id: try fields.require("id", fields.id, as: Int.self),
                parent: try fields.optional("parent", fields.parent, as: Int.self)
            )
        case "bind":
            event = .bind(
                id: try fields.require("id", fields.id, as: Int.self),
                screen: try fields.require("screen", fields.screen, as: String.self)
            )
        case "dismiss": event = .dismiss(id: try fields.require("id", fields.id, as: Int.self))
        case "deinit": event = .deinitialized(id: try fields.require("id", fields.id, as: Int.self))
        case "mark": event = .mark(label: try fields.require("label", fields.label, as: String.self))
        case "dropped":
            let count = try fields.require("count", fields.count, as: Int.self)
            guard count >= 0 else { throw FieldError(message: "\"count\" must not be negative") }
            event = .dropped(count: count)
        case "end": event = .end
        default: event = .unknown(kind: kind)
        }
        return .record(EventRecord(seq: seq, time: time, event: event, site: try fields.site(), line: lineNumber))
    }

    /// The keys an event may carry, each read once and type-checked only when the kind needs it.
    private struct Fields {
        var event, seq, t, id, type, parent, screen, label, count, file, line, function, app, run, pid, version: JSONScalar?

        func header() throws -> SessionHeader {
            let version = try optional("v", self.version, as: Int.self) ?? 1
            guard version == 1 else { throw FieldError(message: "unsupported wire format version \(version) (this reader knows 1)") }
            return SessionHeader(
                app: try require("app", app, as: String.self),
                run: try require("run", run, as: String.self),
                pid: try optional("pid", pid, as: Int.self),
                version: version
            )
        }

        func site() throws -> CallSite? {
            guard let file = try optional("file", file, as: String.self) else { return nil }
            return CallSite(
                file: file,
                line: try optional("line", line, as: Int.self) ?? 0,
                function: try optional("function", function, as: String.self)
            )
        }

        func require<T>(_ key: String, _ value: JSONScalar?, as type: T.Type) throws -> T {
            guard let value, value != .null else { throw FieldError(message: "missing \"\(key)\"") }
            return try convert(key, value, as: type)
        }

        func optional<T>(_ key: String, _ value: JSONScalar?, as type: T.Type) throws -> T? {
            guard let value, value != .null else { return nil }
            return try convert(key, value, as: type)
        }

        private func convert<T>(_ key: String, _ value: JSONScalar, as type: T.Type) throws -> T {
            switch value {
            case .string(let text) where T.self == String.self:
                return text as! T
            case .number(let number, let isInteger) where T.self == Int.self:
                guard isInteger, let integer = Int(exactly: number) else {
                    throw FieldError(message: "\"\(key)\" must be an integer, not \(number)")
                }
                return integer as! T
            case .number(let number, _) where T.self == Double.self:
                return number as! T
            default:
                let wanted = T.self == String.self ? "a string" : T.self == Int.self ? "an integer" : "a number"
                throw FieldError(message: "\"\(key)\" must be \(wanted), not \(value.typeName)")
            }
        }
    }
}
