/// A history that cannot be opened, read or written, said so that a person can act on it.
package struct HistoryError: Error, CustomStringConvertible, Sendable {
    /// The whole message, naming the store (never its password).
    package var message: String
    /// The server ended the session or the connection broke: nothing more can be sent on it, not even a `ROLLBACK`
    /// (the server rolls the transaction back itself when the session ends).
    package var connectionLost: Bool

    /// An error saying `message`.
    package init(_ message: String, connectionLost: Bool = false) {
        self.message = message
        self.connectionLost = connectionLost
    }

    package var description: String { message }
}
