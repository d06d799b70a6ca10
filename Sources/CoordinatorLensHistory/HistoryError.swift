/// A history that cannot be opened, read or written, said so that a person can act on it.
package struct HistoryError: Error, CustomStringConvertible, Sendable {
    /// The whole message, naming the store (never its password).
    package var message: String

    /// An error saying `message`.
    package init(_ message: String) {
        self.message = message
    }

    package var description: String { message }
}
