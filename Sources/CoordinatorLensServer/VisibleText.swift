/// `text` safe for a terminal or a log line: C0 and C1 controls and DEL as `\u{XX}`, newline, return and tab as
/// `\n`, `\r`, `\t`, so a name from the network can neither move the cursor nor forge a line.
func visible(_ text: String) -> String {
    var out = ""
    out.reserveCapacity(text.unicodeScalars.count)
    for scalar in text.unicodeScalars {
        switch scalar.value {
        case 0x0A: out += "\\n"
        case 0x0D: out += "\\r"
        case 0x09: out += "\\t"
        case 0x00...0x1F, 0x7F...0x9F:
            let hex = String(scalar.value, radix: 16, uppercase: true)
            out += "\\u{" + (hex.count < 2 ? "0" + hex : hex) + "}"
        default: out.unicodeScalars.append(scalar)
        }
    }
    return out
}
