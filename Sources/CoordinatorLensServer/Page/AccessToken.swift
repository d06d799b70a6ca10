/// The secret that lets a phone's hook and a browser in when `listen` or `view` binds beyond loopback: 256 random bits
/// as 64 hex digits, or one the user gives (`--token`, `COORDLENS_TOKEN`), compared in constant time.
package struct AccessToken: Sendable, Equatable, CustomStringConvertible {
    /// The token as it is typed: into the page's address, into the hook's `.tcp(…, token:)`.
    package let text: String

    /// The fewest characters a given token may have: 32 hex digits are 128 bits.
    package static let minimumLength = 32

    /// A fresh token from the system's secure random source.
    package static func generate() -> AccessToken {
        var generator = SystemRandomNumberGenerator()
        let digits = Array("0123456789abcdef".utf8)
        var text = ""
        for _ in 0..<32 {
            let byte = UInt8.random(in: 0...255, using: &generator)
            text.unicodeScalars.append(Unicode.Scalar(digits[Int(byte >> 4)]))
            text.unicodeScalars.append(Unicode.Scalar(digits[Int(byte & 0x0F)]))
        }
        return AccessToken(checked: text)
    }

    /// A token the user chose: at least `minimumLength` characters of letters, digits, `-` and `_` (what fits in a
    /// URL, a cookie and a Swift string literal unescaped); nil otherwise.
    package init?(_ text: String) {
        guard text.utf8.count >= Self.minimumLength,
            text.utf8.allSatisfy({ $0.isASCIILetterOrDigit || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") })
        else { return nil }
        self.text = text
    }

    private init(checked text: String) {
        self.text = text
    }

    /// Whether `candidate` is this token, in time that depends on the token's length only, not on where they differ.
    package func matches(_ candidate: some StringProtocol) -> Bool {
        let expected = Array(text.utf8)
        var difference = UInt(bitPattern: expected.count ^ candidate.utf8.count)
        var index = 0
        for byte in candidate.utf8 {
            difference |= UInt(byte ^ expected[index % expected.count])
            index += 1
        }
        return difference == 0
    }

    /// Never the secret itself, so a token cannot reach a log by interpolation.
    package var description: String { "AccessToken(…)" }
}

extension UInt8 {
    fileprivate var isASCIILetterOrDigit: Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(self) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(self)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self)
    }
}
