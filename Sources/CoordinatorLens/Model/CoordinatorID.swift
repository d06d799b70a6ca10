/// A coordinator's id: an opaque token, unique within its session and never reused.
///
/// The wire sends a JSON integer (what the hook's counter makes) or a JSON string (what scripts, fixtures and other
/// producers write). The two kinds never equal each other, as JSON's types differ: `5` and `"5"` are two coordinators.
/// A string keeps its spelling in every output. Either way the id is two plain words, copied and compared without
/// reference counting, so the integer path costs what an `Int` did: a string is interned once (`IDSpellings`) and the
/// id holds its number there. The live server's string ids are interned in scopes and freed with their session.
public struct CoordinatorID: Hashable, Sendable, Comparable, CustomStringConvertible, Codable,
    ExpressibleByIntegerLiteral, ExpressibleByStringLiteral
{
    /// The integer the producer sent; for a string token, its number among the interned spellings.
    package let number: Int
    /// Whether the producer sent a string.
    package let isText: Bool

    /// The token the producer sent as a JSON integer.
    public init(_ number: Int) {
        self.number = number
        isText = false
    }

    /// The token the producer sent as a JSON string, spelled as sent.
    public init(text: String) {
        number = IDSpellings.shared.number(of: text)
        isText = true
    }

    /// The token the producer sent as a JSON string, its spelling held by `scope` rather than kept for good.
    package init(text: String, heldBy scope: IDSpellingScope) {
        number = IDSpellings.shared.number(of: text, heldBy: scope)
        isText = true
    }

    /// The string id spelled `text` if one is in use; nil otherwise, and nothing is interned: for names that come
    /// from a request rather than from a stream.
    package init?(existingText text: String) {
        guard let number = IDSpellings.shared.existingNumber(of: text) else { return nil }
        self.number = number
        isText = true
    }

    public init(integerLiteral value: Int) { self.init(value) }
    public init(stringLiteral value: String) { self.init(text: value) }

    /// The string, for a string token; nil for an integer token.
    public var text: String? {
        guard isText else { return nil }
        // Only an id kept past the last value that held its scope has no spelling: said, rather than trapping.
        return IDSpellings.shared.spelling(number) ?? "(released string id \(number))"
    }

    /// The integer, for an integer token; nil for a string token.
    public var integer: Int? { isText ? nil : number }

    /// As the producer spelled it, without quotes: `5` or `checkout-1`.
    public var description: String { text ?? String(number) }

    /// As a JSON value: a number for an integer token, a quoted string for a string token.
    package var json: String { text.map(JSONText.quoted) ?? String(number) }

    /// Integer tokens first, by value; then string tokens, by spelling: an order that outputs can rely on.
    public static func < (lhs: CoordinatorID, rhs: CoordinatorID) -> Bool {
        switch (lhs.text, rhs.text) {
        case (nil, nil): lhs.number < rhs.number
        case (nil, _?): true
        case (_?, nil): false
        case (let left?, let right?): left < right
        }
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let number = try? container.decode(Int.self) {
            self.init(number)
        } else {
            self.init(text: try container.decode(String.self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if let text { try container.encode(text) } else { try container.encode(number) }
    }
}
