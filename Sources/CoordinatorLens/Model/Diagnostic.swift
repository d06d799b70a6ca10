/// A problem found in the input or in the tree's history; the tree stays consistent around it.
public struct Diagnostic: Hashable, Sendable, Codable, CustomStringConvertible {
    /// 1-based input line, or 0 when the problem has no line (for example a session that never ended).
    public var line: Int
    /// What is wrong, for people; the line number is kept apart in `line`.
    public var message: String

    /// A problem at 1-based input `line`, or at 0 when it belongs to no line.
    package init(line: Int, message: String) {
        self.line = line
        self.message = message
    }

    public var description: String { line > 0 ? "line \(line): \(message)" : message }
}
