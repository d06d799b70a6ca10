/// Text for XML documents (JUnit reports), whatever a recording holds: markup characters become entities and
/// characters XML 1.0 forbids are dropped, so a parser always reads back exactly the text, never new elements.
package enum XMLText {
    /// Character data or an attribute value (double or single quoted). In attributes, tab, newline and carriage return
    /// are written as character references, so attribute-value normalisation keeps them.
    package static func escaped(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars where isAllowed(scalar) {
            if let entity = markupEntity(for: scalar) {
                out += entity
                continue
            }
            switch scalar {
            case "\t": out += "&#9;"
            case "\n": out += "&#10;"
            case "\r": out += "&#13;"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// The reference that stands for a markup character (`&`, `<`, `>`, `"`, `'`), or nil for any other: the one
    /// table that XML reports, HTML files and Graphviz labels are all escaped by.
    ///
    /// `'` is `&#39;` rather than `&apos;`: Graphviz decodes a plain label's references with HTML 4's table, which has
    /// no `&apos;`, while every XML and HTML reader takes the numeric form.
    ///
    /// ```swift
    /// XMLText.markupEntity(for: "'")  // "&#39;"
    /// XMLText.markupEntity(for: "a")  // nil
    /// ```
    @inlinable
    package static func markupEntity(for scalar: Unicode.Scalar) -> String? {
        switch scalar {
        case "&": "&amp;"
        case "<": "&lt;"
        case ">": "&gt;"
        case "\"": "&quot;"
        case "'": "&#39;"
        default: nil
        }
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
