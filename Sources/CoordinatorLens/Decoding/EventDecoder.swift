import CoordinatorWire

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What one input line turned out to be.
public enum DecodedLine: Hashable, Sendable {
    /// A session line; `line` is its 1-based input line.
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
        var strings = StringInterner.uncached
        return decode(line, lineNumber: lineNumber, strings: &strings)
    }

    /// Decodes one line, taking repeated text (type names, call sites) from `strings`: a reader that keeps one
    /// interner for its whole input allocates each distinct name once.
    package static func decode(_ line: UnsafeBufferPointer<UInt8>, lineNumber: Int, strings: inout StringInterner) -> DecodedLine {
        var line = line
        // Editors on Windows start UTF-8 files with a byte order mark; it is no part of the JSON.
        if lineNumber == 1, line.count >= 3, line[0] == 0xEF, line[1] == 0xBB, line[2] == 0xBF {
            line = UnsafeBufferPointer(rebasing: line[3...])
        }
        // A line that starts with its object (every line the hook writes) cannot be blank: no scan for whitespace.
        if line.first != UInt8(ascii: "{"), line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { return .blank }
        if let record = HookLineReader.read(line, lineNumber: lineNumber, strings: &strings) { return .record(record) }
        return decodeGenerally(line, lineNumber: lineNumber, strings: &strings)
    }

    /// Decodes one line (BOM and blank lines already handled) the general way, any key order and spacing, with an
    /// error naming the problem: what `HookLineReader`'s records must agree with.
    package static func decodeGenerally(_ line: UnsafeBufferPointer<UInt8>, lineNumber: Int, strings: inout StringInterner) -> DecodedLine {
        do {
            return try decodeObject(line, lineNumber: lineNumber, strings: &strings)
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

    private static func decodeObject(
        _ line: UnsafeBufferPointer<UInt8>, lineNumber: Int, strings: inout StringInterner
    ) throws -> DecodedLine {
        var scanner = JSONScanner(line)
        try scanner.begin()
        // Each known key goes straight into a typed local: no dictionary, no intermediate values.
        var kind: Kind?
        var seq: Int?
        var count: Int?
        var callLine: Int?
        var pid: Int?
        var version: Int?
        var maximum: Int?
        var id: CoordinatorID?
        var parent: CoordinatorID?
        var time: Double?
        var type: String?
        var screen: String?
        var label: String?
        var file: String?
        var function: String?
        var path: String?
        var app: String?
        var run: String?
        var via: String?
        var per: String?
        var recorder: String?
        var why: String?
        var closures: String?
        // The hook writes seq, t, event and id first, in that order and without spaces: matched whole, these keys
        // skip the general key lookup. Any other order or spacing reads them in the loop below like every other key.
        // (A line in the hook's exact form is read by `HookLineReader` before it gets here.)
        if scanner.skipKey("seq") {
            seq = try scanner.integer(.seq)
            if scanner.skipKey("t") {
                time = try scanner.number(.t)
                if scanner.skipKey("event") {
                    kind = try scanner.kind()
                    if scanner.skipKey("id") { id = try scanner.coordinatorID(.id, heldBy: strings.idScope) }
                }
            }
        }
        while let key = try scanner.nextKey(Key.init) {
            switch key {
            case .event: kind = try scanner.kind()
            case .seq: seq = try scanner.integer(key)
            case .t: time = try scanner.number(key)
            case .id: id = try scanner.coordinatorID(key, heldBy: strings.idScope)
            case .type: type = try scanner.text(key, &strings)
            case .parent: parent = try scanner.coordinatorID(key, heldBy: strings.idScope)
            case .screen: screen = try scanner.text(key, &strings)
            case .label: label = try scanner.text(key, &strings)
            case .count: count = try scanner.integer(key)
            case .file: file = try scanner.text(key, &strings)
            case .line: callLine = try scanner.integer(key)
            case .function: function = try scanner.text(key, &strings)
            case .path: path = try scanner.text(key, &strings)
            case .app: app = try scanner.text(key, &strings)
            case .run: run = try scanner.text(key, &strings)
            case .pid: pid = try scanner.integer(key)
            case .v: version = try scanner.integer(key)
            case .via: via = try scanner.text(key, &strings)
            case .max: maximum = try scanner.integer(key)
            case .per: per = try scanner.text(key, &strings)
            case .recorder: recorder = try scanner.text(key, &strings)
            case .why: why = try scanner.text(key, &strings)
            case .closures: closures = try scanner.text(key, &strings)
            case .other: try scanner.skipValue()
            }
        }
        guard let kind else { throw FieldError.missing(.event) }
        if kind == .known(.session) {
            let version = version ?? WireKind.version
            guard version == WireKind.version else {
                throw FieldError(message: "unsupported wire format version \(version) (this reader knows \(WireKind.version))")
            }
            return .session(
                SessionHeader(app: try required(app, .app), run: try required(run, .run), pid: pid, version: version, recorder: recorder), line: lineNumber)
        }

        // A recorder's note that it could not write some of this session's lines (`coordlens listen` on a full disk), or
        // refused them (`why`: a line too long, unreadable): no event, a warning on its line that says how many and why.
        if kind == .unknown("gap"), seq == nil {
            let missing = try required(count, .count)
            let cause = why.map { "its recorder did not keep \(missing == 1 ? "it" : "them"): \($0)" } ?? "its recorder could not write them (a full disk)"
            throw FieldError(message: "the recording misses \(missing) event\(missing == 1 ? "" : "s") of this session here: \(cause)")
        }
        let sequence = try required(seq, .seq)
        let seconds = try required(time, .t)
        guard seconds >= 0, seconds.isFinite else { throw FieldError(message: "\"t\" must be a non-negative number of seconds") }
        let event: Event
        switch kind {
        case .known(.session): preconditionFailure("handled above")
        case .known(.add): event = .add(id: try required(id, .id), type: try required(type, .type), parent: parent)
        case .known(.watch): event = .watch(id: try required(id, .id), type: try required(type, .type), owner: try required(parent, .parent))
        case .known(.remove): event = .remove(id: try required(id, .id), parent: parent)
        case .known(.bind): event = .bind(id: try required(id, .id), screen: try required(screen, .screen))
        case .known(.dismiss):
            // A cause this reader does not know is still a dismissal; `via` only says how the producer knew.
            event = .dismiss(id: try required(id, .id), via: via.flatMap(DismissalCause.init(rawValue:)) ?? .reported)
        case .known(.expect):
            let maximum = try required(maximum, .max)
            guard maximum >= 0 else { throw FieldError(message: "\"max\" must not be negative") }
            let scope =
                try per.map { text -> AliveLimit.Scope in
                    guard let scope = AliveLimit.Scope(rawValue: text) else {
                        throw FieldError(message: "\"per\" must be \"session\", \"parent\" or \"reuse\", not \"\(text)\"")
                    }
                    return scope
                } ?? .session
            event = .expect(AliveLimit(type: try required(type, .type), maximum: maximum, scope: scope))
        case .known(.held):
            let outcome = try required(via, .via)
            guard let kind = HeldBy.Outcome(rawValue: outcome) else {
                let known = HeldBy.Outcome.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
                throw FieldError(message: "\"via\" of a held line must be one of \(known), not \"\(outcome)\"")
            }
            guard var steps = HeldBy.steps(fromWire: label ?? "") else {
                throw FieldError(message: "\"label\" of a held line must be steps of four fields (holder, id, field, kind)")
            }
            if let closures {
                guard let named = HeldBy.steps(steps, namingClosures: closures) else {
                    throw FieldError(message: "\"closures\" of a held line must name one closure (or none) per step of its label")
                }
                steps = named
            }
            event = .held(id: try required(id, .id), by: HeldBy(outcome: kind, steps: steps, visited: count ?? 0, reason: why))
        case .known(.deinitialized): event = .deinitialized(id: try required(id, .id))
        case .known(.mark): event = .mark(label: InputLimits.bounded(label: try required(label, .label)))
        case .known(.dropped):
            let count = try required(count, .count)
            guard count >= 0 else { throw FieldError(message: "\"count\" must not be negative") }
            event = .dropped(count: count)
        case .known(.heartbeat): event = .heartbeat
        case .known(.end): event = .end
        case .unknown(let name): event = .unknown(kind: name)
        }
        let site = file.map { strings.callSite(file: $0, line: callLine ?? 0, function: function, path: path) }
        return .record(EventRecord(seq: sequence, time: seconds, event: event, site: site, line: lineNumber))
    }

    private static func required<T>(_ value: T?, _ key: Key) throws -> T {
        guard let value else { throw FieldError.missing(key) }
        return value
    }

    fileprivate struct FieldError: Error {
        var message: String

        static func missing(_ key: Key) -> FieldError {
            FieldError(message: "missing \"\(key.name)\"")
        }
    }

    /// The event kinds wire format v1 knows, matched on raw bytes like the keys.
    fileprivate enum Kind: Equatable {
        case known(WireKind)
        case unknown(String)

        init(_ bytes: UnsafeBufferPointer<UInt8>) {
            self = WireKind(utf8: bytes).map(Kind.known) ?? .unknown(String(decoding: bytes, as: UTF8.self))
        }
    }

    /// The keys wire format v1 knows, matched on raw bytes so they never become Strings.
    fileprivate enum Key {
        case event, seq, t, id, type, parent, screen, label, count, file, line, function, path, app, run, pid, v, via, max, per, recorder, why
        case closures
        case other

        init(_ bytes: UnsafeBufferPointer<UInt8>) {
            func matches(_ key: Key) -> Bool { memcmp(bytes.baseAddress!, key.name.utf8Start, bytes.count) == 0 }
            switch bytes.count {
            case 1: self = matches(.t) ? .t : matches(.v) ? .v : .other
            case 2: self = matches(.id) ? .id : .other
            case 3:
                self =
                    matches(.seq)
                    ? .seq
                    : matches(.app)
                        ? .app
                        : matches(.run)
                            ? .run
                            : matches(.pid)
                                ? .pid
                                : matches(.via) ? .via : matches(.max) ? .max : matches(.per) ? .per : matches(.why) ? .why : .other
            case 4: self = matches(.type) ? .type : matches(.file) ? .file : matches(.line) ? .line : matches(.path) ? .path : .other
            case 5: self = matches(.event) ? .event : matches(.label) ? .label : matches(.count) ? .count : .other
            case 6: self = matches(.parent) ? .parent : matches(.screen) ? .screen : .other
            case 8: self = matches(.function) ? .function : matches(.recorder) ? .recorder : matches(.closures) ? .closures : .other
            default: self = .other
            }
        }

        /// Whether the protocol types this key as an integer rather than any number.
        var wantsInteger: Bool { self != .t }

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
            case .path: "path"
            case .app: "app"
            case .run: "run"
            case .pid: "pid"
            case .v: "v"
            case .via: "via"
            case .max: "max"
            case .per: "per"
            case .recorder: "recorder"
            case .why: "why"
            case .closures: "closures"
            case .other: ""
            }
        }
    }
}

/// Typed reads of the value after a key; `null` reads as absent, any other type is an error naming the key.
extension JSONScanner {
    @inline(__always)
    fileprivate mutating func integer(_ key: EventDecoder.Key) throws -> Int? {
        guard try expect(.number, for: key) else { return nil }
        let start = position
        if let integer = try readInteger() { return integer }
        return try notAnInteger(from: start, key)
    }

    /// `integer`'s error, out of line: the number from `start` is a fraction, has an exponent, or is outside Int's range.
    @inline(never)
    private func notAnInteger(from start: Int, _ key: EventDecoder.Key) throws -> Int? {
        let text = text(from: start)
        let isInteger = !text.utf8.contains { $0 == UInt8(ascii: ".") || $0 | 0x20 == UInt8(ascii: "e") }
        let range = isInteger ? " from \(Int.min) to \(Int.max)" : ""
        let shown = text.utf8.count > 40 ? "\(text.prefix(40))… (\(text.utf8.count) characters)" : text
        throw EventDecoder.FieldError(message: "\"\(key.name)\" must be an integer\(range), not \(shown)")
    }

    /// A coordinator id (`id`, `parent`): a JSON integer, or a non-empty JSON string of at most
    /// `InputLimits.maximumIDBytes` bytes, its spelling held by `scope` when there is one. How the wire writes ids is
    /// decided here alone.
    @inline(__always)
    fileprivate mutating func coordinatorID(_ key: EventDecoder.Key, heldBy scope: IDSpellingScope?) throws -> CoordinatorID? {
        guard try peekValue() == .string else { return try integer(key).map { CoordinatorID($0) } }
        let text = try readText()
        guard !text.isEmpty else { throw EventDecoder.FieldError(message: "\"\(key.name)\" must not be an empty string") }
        let bytes = text.utf8.count
        guard bytes <= InputLimits.maximumIDBytes else {
            throw EventDecoder.FieldError(message: "\"\(key.name)\" is a string of \(bytes) bytes, longer than the limit of \(InputLimits.maximumIDBytes)")
        }
        return scope.map { CoordinatorID(text: text, heldBy: $0) } ?? CoordinatorID(text: text)
    }

    @inline(__always)
    fileprivate mutating func number(_ key: EventDecoder.Key) throws -> Double? {
        guard try expect(.number, for: key) else { return nil }
        return try readNumber().value
    }

    @inline(__always)
    fileprivate mutating func text(_ key: EventDecoder.Key, _ strings: inout StringInterner) throws -> String? {
        guard try expect(.string, for: key) else { return nil }
        return try readText(&strings)
    }

    @inline(__always)
    fileprivate mutating func kind() throws -> EventDecoder.Kind? {
        guard try expect(.string, for: .event) else { return nil }
        return try withText { EventDecoder.Kind($0) }
    }

    /// True when the wanted kind comes next; false (having consumed it) for `null`.
    @inline(__always)
    private mutating func expect(_ wanted: JSONValueKind, for key: EventDecoder.Key) throws -> Bool {
        let found = try peekValue()
        if found == wanted { return true }
        return try unexpected(found, wanted: wanted, for: key)
    }

    /// `expect`'s rare path, out of line so that the common one inlines small.
    @inline(never)
    private mutating func unexpected(_ found: JSONValueKind, wanted: JSONValueKind, for key: EventDecoder.Key) throws -> Bool {
        if found == .null {
            try skipValue()
            return false
        }
        let article =
            key == .id || key == .parent
            ? "an integer or a string"
            : wanted == .number && key.wantsInteger ? "an integer" : wanted.name
        throw EventDecoder.FieldError(message: "\"\(key.name)\" must be \(article), not \(found.name)")
    }
}
