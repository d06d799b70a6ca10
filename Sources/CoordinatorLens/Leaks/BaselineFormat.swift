import CoordinatorWire

/// Why a baseline's text cannot be read: the message, and the 1-based line it is about when it is about one.
package struct BaselineFormatError: Error, Equatable {
    package var line: Int?
    package var message: String

    /// The problem `message`, on `line` when it is about one.
    package init(line: Int?, message: String) {
        self.line = line
        self.message = message
    }
}

/// `coordlens-baseline.json`'s text: the accepted leaks, one per line in fingerprint order, so that a review shows
/// each leak added to or removed from the baseline as one line.
///
/// ```json
/// {
///   "coordlensBaseline": 1,
///   "leaks": [
///     {"fingerprint": "HomeCoordinator/GreenCoordinator (still-child)", "types": ["HomeCoordinator", "GreenCoordinator"], "omittedSteps": 0, "reason": "still-child", "count": 3}
///   ],
///   "paths": [
///     {"path": "HomeCoordinator/GreenCoordinator", "types": ["HomeCoordinator", "GreenCoordinator"], "omittedSteps": 0, "alive": 1}
///   ]
/// }
/// ```
/// `types`, `omittedSteps` and `reason` are what is matched; `fingerprint` is the same for people and must agree.
/// `paths` lists every path the runs exercised with the most coordinators in use on it at a run's end: a checked run
/// with more has piled them up, and a leak whose path no checked run exercised is not called fixed.
///
/// Both ways are one pass over the text: a baseline grows with its app, and reading one once split the whole file per
/// leak (a 2,000-coordinator chain's 286 leaks took 14.9 s).
package enum BaselineFormat {
    /// The version this code writes and the newest it reads.
    package static let version = 1

    /// The file's text for `baseline`.
    package static func text(for baseline: LeakBaseline) -> String {
        var text = "{\n  \"coordlensBaseline\": \(version),\n  \"leaks\": "
        let leaks = baseline.entries
        text += leaks.isEmpty ? "[]" : "[\n"
        for (position, entry) in leaks.enumerated() {
            let fingerprint = entry.fingerprint
            text += "    {\"fingerprint\": "
            text += JSONString.quoted(fingerprint.description)
            text += ", \"types\": "
            appendList(fingerprint.types, to: &text)
            text += ", \"omittedSteps\": \(fingerprint.omittedSteps), \"reason\": "
            text += JSONString.quoted(fingerprint.reasonKind.rawValue)
            text += ", \"count\": \(entry.count)}"
            text += position == leaks.count - 1 ? "\n  ]" : ",\n"
        }
        text += ",\n  \"paths\": "
        let paths = baseline.census.entries
        text += paths.isEmpty ? "[]" : "[\n"
        for (position, entry) in paths.enumerated() {
            text += "    {\"path\": "
            text += JSONString.quoted(entry.path.description)
            text += ", \"types\": "
            appendList(entry.path.types, to: &text)
            text += ", \"omittedSteps\": \(entry.path.omittedSteps), \"alive\": \(entry.alive)}"
            text += position == paths.count - 1 ? "\n  ]" : ",\n"
        }
        text += "\n}\n"
        return text
    }

    private static func appendList(_ names: [String], to text: inout String) {
        text += "["
        for (position, name) in names.enumerated() {
            if position > 0 { text += ", " }
            text += JSONString.quoted(name)
        }
        text += "]"
    }

    /// Reads a baseline's text; anything wrong is an error naming, where it can, the line.
    package static func read(_ bytes: UnsafeBufferPointer<UInt8>) throws(BaselineFormatError) -> LeakBaseline {
        let document: Document
        do {
            document = try Document(bytes)
        } catch {
            throw BaselineFormatError(line: line(at: error.offset, in: bytes), message: "not JSON (\(error.message))")
        }
        guard let version = document.version else {
            throw BaselineFormatError(line: nil, message: "not a coordlens baseline (no \"coordlensBaseline\" version); write one with coordlens baseline")
        }
        guard version <= Self.version else {
            throw BaselineFormatError(
                line: nil, message: "baseline version \(version) is newer than the \(Self.version) this coordlens reads; use a newer coordlens")
        }
        guard let leaks = document.leaks else { throw BaselineFormatError(line: nil, message: "\"leaks\" must be a list") }
        var counts: [LeakFingerprint: Int] = [:]
        for leak in leaks {
            func problem(_ message: String) -> BaselineFormatError {
                BaselineFormatError(line: line(at: leak.offset, in: bytes), message: message)
            }
            guard let types = leak.types, !types.isEmpty, let reasonText = leak.reason, let count = leak.count else {
                throw problem("a leak needs \"types\" (a list of type names), \"reason\" and \"count\"")
            }
            guard let reason = RetentionKind(rawValue: reasonText) else {
                throw problem("unknown reason \(reasonText) (one of \(RetentionKind.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            guard count > 0, let omitted = leak.omittedSteps, omitted >= 0 else {
                throw problem("\"count\" must be at least 1 and \"omittedSteps\" at least 0")
            }
            let fingerprint = LeakFingerprint(types: types, omittedSteps: omitted, reasonKind: reason)
            if let shown = leak.fingerprint, shown != fingerprint.description {
                throw problem("\"fingerprint\" says \(shown) but types and reason say \(fingerprint.description)")
            }
            guard counts[fingerprint] == nil else { throw problem("\(fingerprint.description) is listed twice") }
            counts[fingerprint] = count
        }
        // Missing in baselines written before it existed, which then check no pile-ups.
        guard let paths = document.paths else { return LeakBaseline(counts: counts) }
        var alive: [PathCensus.Path: Int] = [:]
        for (index, path) in paths.enumerated() {
            func problem(_ message: String) -> BaselineFormatError {
                BaselineFormatError(line: line(at: path.offset, in: bytes), message: message)
            }
            guard let types = path.types, !types.isEmpty, let count = path.alive, count >= 0, let omitted = path.omittedSteps else {
                throw problem("path \(index + 1) needs \"types\" (a list of type names) and \"alive\" (0 or more)")
            }
            let key = PathCensus.Path(types: types, omittedSteps: max(0, omitted))
            guard alive[key] == nil else { throw problem("path \(key) is listed twice") }
            alive[key] = count
        }
        return LeakBaseline(counts: counts, census: PathCensus(alive: alive))
    }

    /// The 1-based line of byte `offset`: counted only for an error, so reading stays one pass.
    private static func line(at offset: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Int {
        1 + bytes.prefix(min(offset, bytes.count)).reduce(0) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 }
    }

    /// The file's values as written, each entry with where it starts: checked once the whole text has scanned, so a
    /// syntax error anywhere is reported as one, and `coordlensBaseline` may come after the lists.
    private struct Document {
        /// A leak or path entry's fields, nil where missing or of another type.
        struct Entry {
            var offset: Int
            var types: [String]?
            var reason: String?
            var fingerprint: String?
            var count: Int?
            var alive: Int?
            var omittedSteps: Int? = 0
        }

        var version: Int?
        var leaks: [Entry]?
        var paths: [Entry]?

        init(_ bytes: UnsafeBufferPointer<UInt8>) throws(JSONSyntaxError) {
            var scanner = JSONScanner(bytes)
            try scanner.begin()
            while let key = try scanner.nextKey({ String(decoding: $0, as: UTF8.self) }) {
                switch key {
                case "coordlensBaseline": version = try Self.integer(&scanner)
                case "leaks": leaks = try Self.entries(&scanner)
                case "paths": paths = try Self.entries(&scanner)
                default: try scanner.skipValue()
                }
            }
        }

        private static func entries(_ scanner: inout JSONScanner) throws(JSONSyntaxError) -> [Entry]? {
            guard scanner.nextIsList else {
                try scanner.skipValue()
                return nil
            }
            var entries: [Entry] = []
            try scanner.enterList()
            while try scanner.nextElement() {
                var entry = Entry(offset: scanner.position)
                guard try scanner.peekValue() == .nested, !scanner.nextIsList else {
                    try scanner.skipValue()
                    entry.types = nil
                    entries.append(entry)
                    continue
                }
                try scanner.enterObject()
                while let key = try scanner.nextKey({ String(decoding: $0, as: UTF8.self) }) {
                    switch key {
                    case "types": entry.types = try names(&scanner)
                    case "reason": entry.reason = try text(&scanner)
                    case "fingerprint": entry.fingerprint = try text(&scanner)
                    case "count": entry.count = try integer(&scanner)
                    case "alive": entry.alive = try integer(&scanner)
                    case "omittedSteps": entry.omittedSteps = try integer(&scanner)
                    default: try scanner.skipValue()
                    }
                }
                entries.append(entry)
            }
            return entries
        }

        private static func names(_ scanner: inout JSONScanner) throws(JSONSyntaxError) -> [String]? {
            guard scanner.nextIsList else {
                try scanner.skipValue()
                return nil
            }
            var names: [String]? = []
            try scanner.enterList()
            while try scanner.nextElement() {
                let name = try text(&scanner)
                if let name { names?.append(name) } else { names = nil }
            }
            return names
        }

        private static func text(_ scanner: inout JSONScanner) throws(JSONSyntaxError) -> String? {
            guard try scanner.peekValue() == .string else {
                try scanner.skipValue()
                return nil
            }
            return try scanner.readText()
        }

        private static func integer(_ scanner: inout JSONScanner) throws(JSONSyntaxError) -> Int? {
            guard try scanner.peekValue() == .number else {
                try scanner.skipValue()
                return nil
            }
            return try scanner.readInteger()
        }
    }
}
