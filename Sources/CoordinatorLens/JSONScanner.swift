/// A value read from one of the object's own keys; nested values are skipped, never built.
///
/// Strings stay as byte ranges into the line until a caller asks for their text, so a line costs no allocation for
/// the keys the event's kind does not use, and the value carries nothing to retain or release.
enum JSONScalar: Equatable {
    /// The bytes between the quotes; `escaped` when they hold a backslash escape to undo.
    case string(Range<Int>, escaped: Bool)
    case number(Double, isInteger: Bool)
    case bool(Bool)
    case null
    case nested

    var typeName: String {
        switch self {
        case .string: "a string"
        case .number: "a number"
        case .bool: "a boolean"
        case .null: "null"
        case .nested: "an object or array"
        }
    }
}

/// Why a line is not one JSON object; the offset is a byte offset into the line.
struct JSONSyntaxError: Error, Equatable {
    var offset: Int
    var message: String
}

/// Walks one JSON object in place, byte by byte, so decoding builds only the strings an event needs.
///
/// Foundation's JSON readers build a dictionary per line; a wire-format line is a flat object with a handful of
/// keys, and scanning it directly is what keeps decoding above a million events a second.
struct JSONScanner {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0
    private var expectingFirstKey = true

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// Consumes the opening brace.
    mutating func begin() throws(JSONSyntaxError) {
        skipWhitespace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "{") else {
            throw JSONSyntaxError(offset: index, message: index < bytes.count ? "expected a JSON object" : "empty line")
        }
        index += 1
    }

    /// The next key, or nil at the closing brace; `match` maps the key's bytes to what the caller knows, so common keys
    /// never become Strings.
    mutating func nextKey<Key>(_ match: (UnsafeBufferPointer<UInt8>) -> Key) throws(JSONSyntaxError) -> Key? {
        skipWhitespace()
        guard index < bytes.count else { throw error("unterminated object") }
        if bytes[index] == UInt8(ascii: "}") {
            index += 1
            skipWhitespace()
            guard index == bytes.count else { throw error("unexpected text after the object") }
            return nil
        }
        if !expectingFirstKey {
            guard bytes[index] == UInt8(ascii: ",") else { throw error("expected ',' or '}'") }
            index += 1
            skipWhitespace()
        }
        expectingFirstKey = false
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw error("expected a key") }
        let key: Key
        if let raw = rawStringWithoutEscapes() {
            key = match(raw)
        } else {
            var text = try readString()
            key = text.withUTF8 { match($0) }
        }
        skipWhitespace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw error("expected ':' after a key") }
        index += 1
        skipWhitespace()
        return key
    }

    /// Reads the value after a key; objects and arrays are skipped and reported as `.nested`.
    mutating func readValue() throws(JSONSyntaxError) -> JSONScalar {
        guard index < bytes.count else { throw error("missing value") }
        switch bytes[index] {
        case UInt8(ascii: "\""):
            return try scanString()
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return try readNumber()
        case UInt8(ascii: "t"):
            try expectLiteral("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try expectLiteral("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try expectLiteral("null")
            return .null
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            try skipNested()
            return .nested
        default:
            throw error("unexpected character")
        }
    }

    /// The text of a string value this scanner returned.
    func text(of range: Range<Int>, escaped: Bool) -> String {
        guard escaped else { return String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self) }
        var again = JSONScanner(bytes)
        again.index = range.lowerBound - 1
        return (try? again.readString()) ?? ""
    }

    /// Calls `body` with the raw bytes of a range this scanner returned.
    func bytes<Result>(of range: Range<Int>, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        body(UnsafeBufferPointer(rebasing: bytes[range]))
    }

    /// Finds the end of the string at `index`, validating it, without building it.
    private mutating func scanString() throws(JSONSyntaxError) -> JSONScalar {
        let opening = index
        if let raw = rawStringWithoutEscapes() {
            let start = opening + 1
            return .string(start..<(start + raw.count), escaped: false)
        }
        _ = try readString()
        return .string((opening + 1)..<(index - 1), escaped: true)
    }

    private func error(_ message: String) -> JSONSyntaxError {
        JSONSyntaxError(offset: index, message: message)
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"), UInt8(ascii: "\n"): index += 1
            default: return
            }
        }
    }

    private mutating func expectLiteral(_ literal: StaticString) throws(JSONSyntaxError) {
        let count = literal.utf8CodeUnitCount
        guard index + count <= bytes.count else { throw error("invalid literal") }
        let start = literal.utf8Start
        for offset in 0..<count where bytes[index + offset] != start[offset] {
            throw error("invalid literal")
        }
        index += count
    }

    private mutating func readNumber() throws(JSONSyntaxError) -> JSONScalar {
        let start = index
        var negative = false
        if bytes[index] == UInt8(ascii: "-") {
            negative = true
            index += 1
        }
        var integer: Int = 0
        var digits = 0
        var overflow = false
        while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
            let (times, o1) = integer.multipliedReportingOverflow(by: 10)
            let (plus, o2) = times.addingReportingOverflow(Int(bytes[index] &- UInt8(ascii: "0")))
            overflow = overflow || o1 || o2
            integer = plus
            digits += 1
            index += 1
        }
        guard digits > 0 else { throw error("invalid number") }
        var isInteger = true
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            let fractionStart = index
            while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") { index += 1 }
            guard index > fractionStart else { throw error("invalid number") }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            isInteger = false
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            let exponentStart = index
            while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") { index += 1 }
            guard index > exponentStart else { throw error("invalid number") }
        }
        if isInteger && !overflow {
            return .number(Double(negative ? -integer : integer), isInteger: true)
        }
        if let value = fastDecimal(start: start, negative: negative) { return .number(value, isInteger: false) }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        guard let value = Double(text) else { throw JSONSyntaxError(offset: start, message: "invalid number") }
        return .number(value, isInteger: isInteger && !overflow)
    }

    /// The bytes of the string at `index` when it has no escapes (moving past it); nil leaves `index` unchanged.
    private mutating func rawStringWithoutEscapes() -> UnsafeBufferPointer<UInt8>? {
        var end = index + 1
        while end < bytes.count {
            let byte = bytes[end]
            if byte == UInt8(ascii: "\"") {
                let raw = UnsafeBufferPointer(rebasing: bytes[(index + 1)..<end])
                index = end + 1
                return raw
            }
            if byte == UInt8(ascii: "\\") || byte < 0x20 { return nil }
            end += 1
        }
        return nil
    }

    /// Timestamps like `12.345678` without strtod: at most 15 significant digits and a power of ten up to 10^22 are
    /// both exact in a Double, so one division rounds correctly.
    private func fastDecimal(start: Int, negative: Bool) -> Double? {
        var mantissa: UInt64 = 0
        var digits = 0
        var fractionDigits = 0
        var seenPoint = false
        for position in (negative ? start + 1 : start)..<index {
            let byte = bytes[position]
            if byte == UInt8(ascii: ".") {
                seenPoint = true
                continue
            }
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            mantissa = mantissa &* 10 &+ UInt64(byte - UInt8(ascii: "0"))
            digits += 1
            if seenPoint { fractionDigits += 1 }
            if digits > 15 { return nil }
        }
        let value = Double(mantissa) / JSONScanner.powersOfTen[fractionDigits]
        return negative ? -value : value
    }

    private static let powersOfTen: [Double] = (0...22).map { exponent in
        (0..<exponent).reduce(1.0) { product, _ in product * 10 }
    }

    private mutating func readString() throws(JSONSyntaxError) -> String {
        index += 1
        let start = index
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
                index += 1
                return text
            }
            if byte == UInt8(ascii: "\\") { return try readEscapedString(from: start) }
            if byte < 0x20 { throw error("control character in a string") }
            index += 1
        }
        throw error("unterminated string")
    }

    private mutating func readEscapedString(from start: Int) throws(JSONSyntaxError) -> String {
        var scalars = Array(UnsafeBufferPointer(rebasing: bytes[start..<index]))
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                return String(decoding: scalars, as: UTF8.self)
            case UInt8(ascii: "\\"):
                index += 1
                guard index < bytes.count else { throw error("unterminated string") }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scalars.append(escape)
                case UInt8(ascii: "b"): scalars.append(0x08)
                case UInt8(ascii: "f"): scalars.append(0x0C)
                case UInt8(ascii: "n"): scalars.append(0x0A)
                case UInt8(ascii: "r"): scalars.append(0x0D)
                case UInt8(ascii: "t"): scalars.append(0x09)
                case UInt8(ascii: "u"):
                    var code = try readHex4()
                    if (0xD800...0xDBFF).contains(code) {
                        guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
                        else { throw error("unpaired surrogate") }
                        index += 2
                        let low = try readHex4()
                        guard (0xDC00...0xDFFF).contains(low) else { throw error("unpaired surrogate") }
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    } else if (0xDC00...0xDFFF).contains(code) {
                        throw error("unpaired surrogate")
                    }
                    scalars.append(contentsOf: String(Character(Unicode.Scalar(code)!)).utf8)
                default:
                    throw error("invalid escape")
                }
            default:
                if byte < 0x20 { throw error("control character in a string") }
                scalars.append(byte)
                index += 1
            }
        }
        throw error("unterminated string")
    }

    private mutating func readHex4() throws(JSONSyntaxError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw error("invalid \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw error("invalid \\u escape")
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    private mutating func skipNested() throws(JSONSyntaxError) {
        var depth = 0
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1
                index += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                index += 1
                if depth == 0 { return }
            case UInt8(ascii: "\""):
                _ = try readString()
            default:
                index += 1
            }
        }
        throw error("unterminated object or array")
    }
}
