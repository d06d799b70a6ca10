/// A history that cannot be opened, read or written, said so that a person can act on it.
public struct HistoryError: Error, CustomStringConvertible, Sendable {
    /// The whole message, naming the store (never its password).
    public var message: String

    /// An error saying `message`.
    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}
