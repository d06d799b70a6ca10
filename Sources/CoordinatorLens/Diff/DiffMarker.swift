/// What happened to one coordinator between run A and run B, as a diff shows it: one marker each.
///
/// When several apply, the one that matters most for a leak hunt wins: a new leak, then a fixed one, then added or
/// gone, then a changed verdict or screen.
public enum DiffMarker: String, Hashable, Sendable, CaseIterable, Codable {
    /// Only in B.
    case added
    /// Only in A.
    case gone
    /// Retained in B, and a leak A does not have (by fingerprint).
    case newLeak = "new-leak"
    /// Retained in A, and a leak B no longer has (by fingerprint).
    case fixedLeak = "fixed-leak"
    /// In both, with the same verdict and screen.
    case unchanged
    /// In both, with another verdict or screen.
    case changed

    /// The one-character marker the text output prints.
    package var symbol: String {
        switch self {
        case .added: "+"
        case .gone: "-"
        case .newLeak: "!"
        case .fixedLeak: "✓"
        case .unchanged: "="
        case .changed: "~"
        }
    }
}
