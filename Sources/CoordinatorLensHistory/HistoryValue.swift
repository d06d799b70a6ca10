/// A value bound into or read out of a history query: the few column types the schema uses.
enum HistoryValue: Sendable, Equatable {
    case integer(Int64)
    case text(String)
    case null

    init(_ text: String?) { self = text.map { .text($0) } ?? .null }
    init(_ number: Int) { self = .integer(Int64(number)) }

    var text: String? {
        if case .text(let value) = self { return value }
        return nil
    }

    var integer: Int? {
        if case .integer(let value) = self { return Int(value) }
        return nil
    }
}
