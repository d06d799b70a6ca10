/// Makes text from a recording safe to print on a terminal or into a CI log: control characters and newlines become
/// visible escapes, so a type name can neither start a new report line nor send terminal escape sequences.
package enum TextSanitizer {
    /// `text` with `\n`, `\r`, `\t` spelled out and every other C0/C1 control character, DEL and bidirectional control
    /// as `\u{XX}`.
    package static func visible(_ text: String) -> String {
        // Printable ASCII, nearly every line of a report, needs no scalar decoding to be passed through.
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return text }
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count + 8)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where isControl(scalar):
                out += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar == "\u{2028}" || scalar == "\u{2029}"
            || isBidirectionalControl(scalar)
    }

    /// The explicit bidirectional formatting characters (Unicode's Bidi_Control): they reorder the text around them,
    /// so a name holding U+202E can make a report line read as something else ("Trojan Source", CVE-2021-42574).
    package static func isBidirectionalControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }
}
