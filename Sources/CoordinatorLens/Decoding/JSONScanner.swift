#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The kind of JSON value that comes next, so a type error can say what it found.
enum JSONValueKind: Equatable {
    case string, number, boolean, null, nested

    var name: String {
        switch self {
        case .string: "a string"
        case .number: "a number"
        case .boolean: "a boolean"
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
    /// How many containers the scanner is inside beyond the outermost object: an event line never nests, a baseline
    /// file does. A container is entered as the value after a key or as an element, so the one around it has always
    /// passed its first key or element when it is left: a count is all the state it needs.
    private var nesting = 0

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
            if nesting > 0 {
                leaveNested()
                return nil
            }
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

    /// Consumes the opening brace of an object that is a value (after a key, or an element of a list); its keys then
    /// come from `nextKey` up to its closing brace, after which the enclosing container's go on.
    mutating func enterObject() throws(JSONSyntaxError) {
        try enterNested(UInt8(ascii: "{"), "expected an object")
    }

    /// Consumes the opening bracket of a list that is a value; its elements come one `nextElement` at a time.
    mutating func enterList() throws(JSONSyntaxError) {
        try enterNested(UInt8(ascii: "["), "expected a list")
    }

    /// Whether the next value is a list rather than an object (or anything else).
    var nextIsList: Bool { index < bytes.count && bytes[index] == UInt8(ascii: "[") }

    /// Whether the list just entered has another element (then at it), consuming the comma before it or the closing
    /// bracket after the last one.
    mutating func nextElement() throws(JSONSyntaxError) -> Bool {
        skipWhitespace()
        guard index < bytes.count else { throw error("unterminated list") }
        if bytes[index] == UInt8(ascii: "]") {
            index += 1
            leaveNested()
            return false
        }
        if !expectingFirstKey {
            guard bytes[index] == UInt8(ascii: ",") else { throw error("expected ',' or ']'") }
            index += 1
            skipWhitespace()
        }
        expectingFirstKey = false
        return true
    }

    private mutating func enterNested(_ opening: UInt8, _ expected: String) throws(JSONSyntaxError) {
        skipWhitespace()
        guard index < bytes.count, bytes[index] == opening else { throw error(expected) }
        index += 1
        nesting += 1
        expectingFirstKey = true
    }

    private mutating func leaveNested() {
        nesting -= 1
        expectingFirstKey = false
    }

    /// Consumes `"name":` (after a comma unless it is the first key) and any whitespace after it when the key comes
    /// next exactly so, with no whitespace before it; otherwise consumes nothing and returns false, and `nextKey` reads
    /// the key the general way.
    mutating func skipKey(_ name: StaticString) -> Bool {
        guard let base = bytes.baseAddress else { return false }
        let length = name.utf8CodeUnitCount
        var at = index
        if !expectingFirstKey {
            guard at < bytes.count, base[at] == UInt8(ascii: ",") else { return false }
            at += 1
        }
        guard at + length + 3 <= bytes.count, base[at] == UInt8(ascii: "\""),
            base[at + length + 1] == UInt8(ascii: "\""), base[at + length + 2] == UInt8(ascii: ":"),
            memcmp(base + at + 1, name.utf8Start, length) == 0
        else { return false }
        index = at + length + 3
        expectingFirstKey = false
        // As after any key: `"seq": 1` (Python's json.dumps writes a space there) reads like `"seq":1`.
        skipWhitespace()
        return true
    }

    /// The kind of the value after a key, without consuming it.
    @inline(__always)
    func peekValue() throws(JSONSyntaxError) -> JSONValueKind {
        guard index < bytes.count else { throw error("missing value") }
        switch bytes[index] {
        case UInt8(ascii: "\""): return .string
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number
        case UInt8(ascii: "t"), UInt8(ascii: "f"): return .boolean
        case UInt8(ascii: "n"): return .null
        case UInt8(ascii: "{"), UInt8(ascii: "["): return .nested
        default: throw error("unexpected character")
        }
    }

    /// Consumes the value after a key, whatever it is, checking its syntax.
    mutating func skipValue() throws(JSONSyntaxError) {
        switch try peekValue() {
        case .string: _ = try scanString()
        case .number: _ = try readNumber()
        case .boolean: try expectLiteral(bytes[index] == UInt8(ascii: "t") ? "true" : "false")
        case .null: try expectLiteral("null")
        case .nested: try skipNested()
        }
    }

    /// Reads a string value (the caller has peeked `.string`).
    mutating func readText() throws(JSONSyntaxError) -> String {
        if let raw = rawStringWithoutEscapes() { return String(decoding: raw, as: UTF8.self) }
        return try readString()
    }

    /// Reads a string value (the caller has peeked `.string`), sharing one String per repeated text through `strings`.
    mutating func readText(_ strings: inout StringInterner) throws(JSONSyntaxError) -> String {
        if let raw = rawStringWithoutEscapes() { return strings.string(raw) }
        return try readString()
    }

    /// Hands a string value's bytes to `body` without building a String when it has no escapes.
    mutating func withText<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) throws(JSONSyntaxError) -> Result {
        if let raw = rawStringWithoutEscapes() { return body(raw) }
        var text = try readString()
        return text.withUTF8(body)
    }

    /// Finds the end of the string at `index`, validating it, without building it.
    private mutating func scanString() throws(JSONSyntaxError) {
        if rawStringWithoutEscapes() == nil { _ = try readString() }
    }

    private func error(_ message: String) -> JSONSyntaxError {
        JSONSyntaxError(offset: index, message: message)
    }

    @inline(__always)
    private mutating func skipWhitespace() {
        // The hook writes no whitespace: one comparison and out.
        guard index < bytes.count, bytes[index] <= UInt8(ascii: " ") else { return }
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

    /// Reads a number in one pass. Integers and decimals of at most 15 significant digits (every `seq`, `id` and
    /// `t` the hook writes) are exact from their digits: such a mantissa and a power of ten up to 10^22 are both exact
    /// in a Double, so one division rounds correctly. Anything longer, or with an exponent, goes through strtod.
    mutating func readNumber() throws(JSONSyntaxError) -> (value: Double, isInteger: Bool) {
        let base = bytes.baseAddress!
        let count = bytes.count
        let start = index
        var at = index
        let negative = base[at] == UInt8(ascii: "-")
        if negative { at += 1 }
        var mantissa: UInt64 = 0
        let integerStart = at
        while at < count {
            let digit = base[at] &- UInt8(ascii: "0")
            if digit >= 10 { break }
            mantissa = mantissa &* 10 &+ UInt64(digit)
            at += 1
        }
        var digits = at - integerStart
        guard digits > 0 else { throw JSONSyntaxError(offset: at, message: "invalid number") }
        var isInteger = true
        var fractionDigits = 0
        if at < count, base[at] == UInt8(ascii: ".") {
            isInteger = false
            at += 1
            let fractionStart = at
            while at < count {
                let digit = base[at] &- UInt8(ascii: "0")
                if digit >= 10 { break }
                mantissa = mantissa &* 10 &+ UInt64(digit)
                at += 1
            }
            fractionDigits = at - fractionStart
            digits += fractionDigits
            guard fractionDigits > 0 else { throw JSONSyntaxError(offset: at, message: "invalid number") }
        }
        var hasExponent = false
        if at < count, base[at] == UInt8(ascii: "e") || base[at] == UInt8(ascii: "E") {
            isInteger = false
            hasExponent = true
            at += 1
            if at < count, base[at] == UInt8(ascii: "+") || base[at] == UInt8(ascii: "-") { at += 1 }
            let exponentStart = at
            while at < count, base[at] &- UInt8(ascii: "0") < 10 { at += 1 }
            guard at > exponentStart else { throw JSONSyntaxError(offset: at, message: "invalid number") }
        }
        index = at
        if !hasExponent, digits <= 15 {
            let magnitude = Double(mantissa) / JSONScanner.powersOfTen[fractionDigits]
            return (negative ? -magnitude : magnitude, isInteger)
        }
        let text = String(decoding: UnsafeBufferPointer(start: base + start, count: at - start), as: UTF8.self)
        guard let value = Double(text) else { throw JSONSyntaxError(offset: start, message: "invalid number") }
        // An integer too long to be exact in a Double is no valid id or seq.
        return (value, isInteger && digits <= 18)
    }

    /// Reads a number that must be an integer, exactly: digits go straight into an Int, so ids and seqs above 2^53,
    /// which a Double would round onto their neighbours, stay distinct. Nil for a fraction, an exponent or a value
    /// outside Int's range, with `index` past the number so the caller can quote it (`text(from:)`).
    @inline(__always)
    mutating func readInteger() throws(JSONSyntaxError) -> Int? {
        let base = bytes.baseAddress!
        let count = bytes.count
        let start = index
        var at = index
        let negative = base[at] == UInt8(ascii: "-")
        if negative { at += 1 }
        // Up to 18 digits cannot overflow an Int: that loop needs no overflow checks, and longer numbers (no id or
        // seq the hook writes) take the careful path.
        let digitsStart = at
        let fastEnd = Swift.min(count, digitsStart + 18)
        var magnitude = 0
        while at < fastEnd {
            let digit = base[at] &- UInt8(ascii: "0")
            if digit >= 10 { break }
            magnitude = magnitude &* 10 &+ Int(digit)
            at += 1
        }
        guard at > digitsStart, at == count || base[at] &- UInt8(ascii: "0") >= 10 && base[at] != UInt8(ascii: ".") && base[at] | 0x20 != UInt8(ascii: "e")
        else { return try readIntegerCarefully(from: start) }
        index = at
        return negative ? -magnitude : magnitude
    }

    /// `readInteger` for more than 18 digits, fractions and exponents.
    @inline(never)
    private mutating func readIntegerCarefully(from start: Int) throws(JSONSyntaxError) -> Int? {
        let base = bytes.baseAddress!
        index = start
        var at = index
        let negative = base[at] == UInt8(ascii: "-")
        if negative { at += 1 }
        var magnitude: UInt64 = 0
        var overflow = false
        let digitsStart = at
        while at < bytes.count {
            let digit = base[at] &- UInt8(ascii: "0")
            if digit >= 10 { break }
            let (times10, o1) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, o2) = times10.addingReportingOverflow(UInt64(digit))
            overflow = overflow || o1 || o2
            magnitude = sum
            at += 1
        }
        let isPlainInteger =
            at > digitsStart
            && (at == bytes.count || (base[at] != UInt8(ascii: ".") && base[at] | 0x20 != UInt8(ascii: "e")))
        guard isPlainInteger else {
            _ = try readNumber()
            return nil
        }
        index = at
        if overflow { return nil }
        if negative {
            guard magnitude <= UInt64(Int.max) + 1 else { return nil }
            return magnitude == UInt64(Int.max) + 1 ? Int.min : -Int(magnitude)
        }
        guard magnitude <= UInt64(Int.max) else { return nil }
        return Int(magnitude)
    }

    /// The input from byte `start` up to where the scanner is, as text: what a message quotes of a value just read.
    func text(from start: Int) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
    }

    /// The byte offset the scanner is at.
    var position: Int { index }

    /// 10^0 through 10^22, each exact in a Double.
    static let powersOfTen: [Double] = (0...22).map { exponent in
        (0..<exponent).reduce(1.0) { product, _ in product * 10 }
    }

    /// The bytes of the string at `index` when it has no escapes (moving past it); nil leaves `index` unchanged.
    private mutating func rawStringWithoutEscapes() -> UnsafeBufferPointer<UInt8>? {
        // Hot loops run on a base pointer and a local index, which the optimiser keeps in registers.
        guard let base = bytes.baseAddress else { return nil }
        let count = bytes.count
        var end = index + 1
        // Eight bytes at a time up to the word that holds the closing quote (or anything else to look at): names and
        // paths run to dozens of bytes, and a byte at a time was the scanner's largest cost after the numbers.
        while end + 8 <= count, !Self.holdsQuoteBackslashOrControl(UnsafeRawPointer(base).loadUnaligned(fromByteOffset: end, as: UInt64.self)) {
            end += 8
        }
        while end < count {
            let byte = base[end]
            if byte == UInt8(ascii: "\"") {
                let raw = UnsafeBufferPointer(start: base + index + 1, count: end - index - 1)
                index = end + 1
                return raw
            }
            if byte == UInt8(ascii: "\\") || byte < 0x20 { return nil }
            end += 1
        }
        return nil
    }

    /// Whether any of the eight bytes is `"`, `\` or below 0x20. Each test is the classic exact "has a zero byte"
    /// (`(v - 0x01…) & ~v & 0x80…`) or "has a byte below n" word trick; bytes of 0x80 and above never match.
    @inline(__always)
    private static func holdsQuoteBackslashOrControl(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let quotes = word ^ (ones &* UInt64(UInt8(ascii: "\"")))
        let backslashes = word ^ (ones &* UInt64(UInt8(ascii: "\\")))
        let quote = (quotes &- ones) & ~quotes
        let backslash = (backslashes &- ones) & ~backslashes
        let control = (word &- ones &* 0x20) & ~word
        return (quote | backslash | control) & highs != 0
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
