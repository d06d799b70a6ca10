/// A value kept in a box of its own, one pointer wide where it is stored: for a field that few of a million values set.
/// Encoded and decoded as the value itself, so JSON cannot tell it is boxed.
struct OutOfLine<Value: Hashable & Sendable & Codable>: Hashable, Sendable, Codable {
    private indirect enum Box: Hashable, Sendable {
        case value(Value)
    }

    private let box: Box

    init(_ value: Value) {
        box = .value(value)
    }

    var value: Value {
        switch box {
        case .value(let value): value
        }
    }

    init(from decoder: any Decoder) throws {
        box = .value(try Value(from: decoder))
    }

    func encode(to encoder: any Encoder) throws {
        try value.encode(to: encoder)
    }
}
