/// JSON string literals written by hand, the one escaper for the hook's lines and the inspector's reports.
public enum JSONString {
    /// A JSON string literal for UTF-8 `text`, quotes included: `"` and `\` escaped, control characters as `\n`, `\r`,
    /// `\t` or `\u00XX`; everything else passes through.
    public static func quoted(_ text: some Sequence<UInt8>) -> [UInt8] {
        var out: [UInt8] = [UInt8(ascii: "\"")]
        out.reserveCapacity(text.underestimatedCount + 2)
        for byte in text {
            switch byte {
            case UInt8(ascii: "\""): out += [UInt8(ascii: "\\"), UInt8(ascii: "\"")]
            case UInt8(ascii: "\\"): out += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
            case UInt8(ascii: "\n"): out += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
            case UInt8(ascii: "\r"): out += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
            case UInt8(ascii: "\t"): out += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
            case 0..<0x20:
                out += [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hex(byte >> 4), hex(byte & 0xF)]
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
        return out
    }

    /// `quoted` for a String.
    public static func quoted(_ text: String) -> String {
        String(decoding: quoted(text.utf8), as: UTF8.self)
    }

    private static func hex(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
    }
}
