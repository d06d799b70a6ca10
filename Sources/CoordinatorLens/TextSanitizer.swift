/// Makes user text (type names, app names, run ids, labels) safe to print on a terminal or in a log: it can never
/// start a new output line or send a terminal escape sequence.
public enum TextSanitizer {
    /// `text` with control characters shown as escapes: `\n`, `\r`, `\t`, and `\u{1B}` for the rest (C0, DEL, C1),
    /// as well as the Unicode line and paragraph separators. Text without any comes back unchanged.
    public static func visible(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            guard needsEscape(scalar) else {
                out.append(scalar)
                continue
            }
            let escape: String = switch scalar {
            case "\n": "\\n"
            case "\r": "\\r"
            case "\t": "\\t"
            default: "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            }
            out.append(contentsOf: escape.unicodeScalars)
        }
        return String(out)
    }

    private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) { return true }
        return scalar.value == 0x2028 || scalar.value == 0x2029
    }
}
