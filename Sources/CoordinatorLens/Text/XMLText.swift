/// Text for XML documents (JUnit reports), whatever a recording holds: markup characters become entities and
/// characters XML 1.0 forbids are dropped, so a parser always reads back exactly the text, never new elements.
package enum XMLText {
    /// Character data or an attribute value (double or single quoted). In attributes, tab, newline and carriage return
    /// are written as character references, so attribute-value normalisation keeps them.
    package static func escaped(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars where isAllowed(scalar) {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\t": out += "&#9;"
            case "\n": out += "&#10;"
            case "\r": out += "&#13;"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// XML 1.0's Char production: tab, newline, carriage return, and everything from U+0020 but U+FFFE and U+FFFF
    /// (a Swift scalar is never a surrogate).
    static func isAllowed(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x9, 0xA, 0xD: true
        case 0x20...0xFFFD: true
        case 0x10000...0x10FFFF: true
        default: false
        }
    }
}
