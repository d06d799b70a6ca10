/// The page address's fragment that opens the comparison of two runs (`#compare&a=RUN&b=RUN`), as compare.js reads it.
enum CompareFragment {
    /// Run ids percent-encoded but for unreserved characters, so any id survives URLSearchParams on the page.
    static func text(a: String, b: String) -> String {
        "#compare&a=\(encoded(a))&b=\(encoded(b))"
    }

    private static func encoded(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                out.append(Character(UnicodeScalar(byte)))
            default:
                out += "%" + String(byte, radix: 16, uppercase: true).leftPadded
            }
        }
        return out
    }
}

extension String {
    fileprivate var leftPadded: String { count == 1 ? "0" + self : self }
}
