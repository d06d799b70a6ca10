#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

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

    private static func decodeObject(_ line: UnsafeBufferPointer<UInt8>, lineNumber: Int) throws -> DecodedLine {
        var scanner = JSONScanner(line)
        try scanner.begin()
        var fields = Fields(scanner: scanner)
        while let key = try scanner.nextKey(Key.init) {
            let value = try scanner.readValue()
            fields[key] = value
        }
        let kind = try fields.kind()
        if kind == .session { return .session(try fields.header(), line: lineNumber) }

        let seq = try fields.requiredInt(.seq)
        let time = try fields.requiredDouble(.t)
        guard time >= 0, time.isFinite else { throw FieldError(message: "\"t\" must be a non-negative number of seconds") }
        let event: Event
        switch kind {
        case .session: preconditionFailure("handled above")
        case .add:
            event = .add(id: try fields.requiredInt(.id), type: try fields.requiredString(.type), parent: try fields.int(.parent))
        case .remove: event = .remove(id: try fields.requiredInt(.id), parent: try fields.int(.parent))
        case .bind: event = .bind(id: try fields.requiredInt(.id), screen: try fields.requiredString(.screen))
        case .dismiss: event = .dismiss(id: try fields.requiredInt(.id))
        case .deinitialized: event = .deinitialized(id: try fields.requiredInt(.id))
        case .mark: event = .mark(label: try fields.requiredString(.label))
        case .dropped:
            let count = try fields.requiredInt(.count)
            guard count >= 0 else { throw FieldError(message: "\"count\" must not be negative") }
            event = .dropped(count: count)
        case .end: event = .end
        case .unknown(let name): event = .unknown(kind: name)
        }
        return .record(EventRecord(seq: seq, time: time, event: event, site: try fields.site(), line: lineNumber))
    }

    private struct FieldError: Error {
        var message: String
    }

    /// The event kinds wire format v1 knows, matched on raw bytes like the keys.
    private enum Kind: Equatable {
        case session, add, remove, bind, dismiss, deinitialized, mark, dropped, end
        case unknown(String)

        init(_ bytes: UnsafeBufferPointer<UInt8>) {
            func matches(_ name: StaticString) -> Bool {
                bytes.count == name.utf8CodeUnitCount && memcmp(bytes.baseAddress!, name.utf8Start, bytes.count) == 0
            }
            if matches("add") { self = .add }
            else if matches("bind") { self = .bind }
            else if matches("dismiss") { self = .dismiss }
            else if matches("remove") { self = .remove }
            else if matches("deinit") { self = .deinitialized }
            else if matches("mark") { self = .mark }
            else if matches("session") { self = .session }
            else if matches("end") { self = .end }
            else if matches("dropped") { self = .dropped }
            else { self = .unknown(String(decoding: bytes, as: UTF8.self)) }
        }
    }

    /// The keys wire format v1 knows, matched on raw bytes so they never become Strings.
    private enum Key {
        case event, seq, t, id, type, parent, screen, label, count, file, line, function, app, run, pid, v, other

        init(_ bytes: UnsafeBufferPointer<UInt8>) {
            func matches(_ key: Key) -> Bool { memcmp(bytes.baseAddress!, key.name.utf8Start, bytes.count) == 0 }
            switch bytes.count {
            case 1: self = matches(.t) ? .t : matches(.v) ? .v : .other
            case 2: self = matches(.id) ? .id : .other
            case 3: self = matches(.seq) ? .seq : matches(.app) ? .app : matches(.run) ? .run : matches(.pid) ? .pid : .other
            case 4: self = matches(.type) ? .type : matches(.file) ? .file : matches(.line) ? .line : .other
            case 5: self = matches(.event) ? .event : matches(.label) ? .label : matches(.count) ? .count : .other
            case 6: self = matches(.parent) ? .parent : matches(.screen) ? .screen : .other
            case 8: self = matches(.function) ? .function : .other
            default: self = .other
            }
        }

        var name: StaticString {
            switch self {
            case .event: "event"
            case .seq: "seq"
            case .t: "t"
            case .id: "id"
            case .type: "type"
            case .parent: "parent"
            case .screen: "screen"
            case .label: "label"
            case .count: "count"
            case .file: "file"
            case .line: "line"
            case .function: "function"
            case .app: "app"
            case .run: "run"
            case .pid: "pid"
            case .v: "v"
            case .other: ""
            }
        }
    }

    /// The values of one line's known keys, each type-checked only when the kind needs it.
    ///
    /// One function per type rather than a generic with casts: this runs a million times a second.
    private struct Fields {
        let scanner: JSONScanner
        private var event, seq, t, id, type, parent, screen, label, count, file, line, function, app, run, pid, v: JSONScalar?

        init(scanner: JSONScanner) {
            self.scanner = scanner
        }

        /// Stored properties, not an array: a line allocates nothing it does not return.
        subscript(key: Key) -> JSONScalar? {
            get {
                switch key {
                case .event: event
                case .seq: seq
                case .t: t
                case .id: id
                case .type: type
                case .parent: parent
                case .screen: screen
                case .label: label
                case .count: count
                case .file: file
                case .line: line
                case .function: function
                case .app: app
                case .run: run
                case .pid: pid
                case .v: v
                case .other: nil
                }
            }
            set {
                switch key {
                case .event: event = newValue
                case .seq: seq = newValue
                case .t: t = newValue
                case .id: id = newValue
                case .type: type = newValue
                case .parent: parent = newValue
                case .screen: screen = newValue
                case .label: label = newValue
                case .count: count = newValue
                case .file: file = newValue
                case .line: line = newValue
                case .function: function = newValue
                case .app: app = newValue
                case .run: run = newValue
                case .pid: pid = newValue
                case .v: v = newValue
                case .other: break
                }
            }
        }

        private func present(_ key: Key) -> JSONScalar? {
            guard let value = self[key], value != .null else { return nil }
            return value
        }

        func string(_ key: Key) throws -> String? {
            guard let value = present(key) else { return nil }
            guard case .string(let range, let escaped) = value else { throw mistyped(key, value, "a string") }
            return scanner.text(of: range, escaped: escaped)
        }

        func int(_ key: Key) throws -> Int? {
            guard let value = present(key) else { return nil }
            guard case .number(let number, let isInteger) = value else { throw mistyped(key, value, "an integer") }
            guard isInteger, let integer = Int(exactly: number) else {
                throw FieldError(message: "\"\(key.name)\" must be an integer, not \(number)")
            }
            return integer
        }

        func double(_ key: Key) throws -> Double? {
            guard let value = present(key) else { return nil }
            guard case .number(let number, _) = value else { throw mistyped(key, value, "a number") }
            return number
        }

        func requiredString(_ key: Key) throws -> String { try required(key, string(key)) }

        func kind() throws -> Kind {
            guard let value = present(.event) else { throw FieldError(message: "missing \"event\"") }
            guard case .string(let range, let escaped) = value else { throw mistyped(.event, value, "a string") }
            if escaped {
                var text = scanner.text(of: range, escaped: true)
                return text.withUTF8 { Kind($0) }
            }
            return scanner.bytes(of: range) { Kind($0) }
        }
        func requiredInt(_ key: Key) throws -> Int { try required(key, int(key)) }
        func requiredDouble(_ key: Key) throws -> Double { try required(key, double(key)) }

        func header() throws -> SessionHeader {
            let version = try int(.v) ?? 1
            guard version == 1 else { throw FieldError(message: "unsupported wire format version \(version) (this reader knows 1)") }
            return SessionHeader(app: try requiredString(.app), run: try requiredString(.run), pid: try int(.pid), version: version)
        }

        func site() throws -> CallSite? {
            guard let file = try string(.file) else { return nil }
            return CallSite(file: file, line: try int(.line) ?? 0, function: try string(.function))
        }

        private func required<T>(_ key: Key, _ value: T?) throws -> T {
            guard let value else { throw FieldError(message: "missing \"\(key.name)\"") }
            return value
        }

        private func mistyped(_ key: Key, _ value: JSONScalar, _ wanted: String) -> FieldError {
            FieldError(message: "\"\(key.name)\" must be \(wanted), not \(value.typeName)")
        }
    }
}
