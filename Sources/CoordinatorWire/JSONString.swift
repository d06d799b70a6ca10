/// JSON string literals written by hand, the one escaper for the hook's lines and the inspector's reports.
///
/// `package`: only this package's modules write wire lines and reports; an app never needs it.
package enum JSONString {
    /// A JSON string literal for UTF-8 `text`, quotes included: `"` and `\` escaped, control characters as `\n`, `\r`,
    /// `\t` or `\u00XX`; everything else passes through.
    package static func quoted(_ text: some Sequence<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(text.underestimatedCount + 2)
        if text.withContiguousStorageIfAvailable({ append($0, quotedTo: &out) }) == nil {
            Array(text).withUnsafeBufferPointer { append($0, quotedTo: &out) }
        }
        return out
    }

    /// Appends `text` to `out` as a JSON string literal, quotes included; runs that need no escape go in whole, so a
    /// call site's path (the bulk of a hook line) costs one copy.
    @inlinable
    package static func append(_ text: UnsafeBufferPointer<UInt8>, quotedTo out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var runStart = 0
        for index in 0..<text.count {
            let byte = text[index]
            guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
            if runStart < index { out.append(contentsOf: UnsafeBufferPointer(rebasing: text[runStart..<index])) }
            appendEscape(byte, to: &out)
            runStart = index + 1
        }
        if runStart < text.count { out.append(contentsOf: UnsafeBufferPointer(rebasing: text[runStart...])) }
        out.append(UInt8(ascii: "\""))
    }

    /// The escape of one byte that cannot stand in a JSON string.
    @usableFromInline
    static func appendEscape(_ byte: UInt8, to out: inout [UInt8]) {
        switch byte {
        case UInt8(ascii: "\""): out += [UInt8(ascii: "\\"), UInt8(ascii: "\"")]
        case UInt8(ascii: "\\"): out += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
        case UInt8(ascii: "\n"): out += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
        case UInt8(ascii: "\r"): out += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
        case UInt8(ascii: "\t"): out += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
        default: out += [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hex(byte >> 4), hex(byte & 0xF)]
        }
    }

    /// `quoted` for a String.
    package static func quoted(_ text: String) -> String {
        String(decoding: quoted(text.utf8), as: UTF8.self)
    }

    private static func hex(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
    }
}
