/// A done coordinator its parent keeps for reuse by design (a declared reusable type, within its count): judged
/// alive, drawn and listed apart from both the coordinators in use and the leaks.
public struct KeptForReuse: Hashable, Sendable, Codable {
    /// How many of its type may be kept at once.
    public var limit: Int
    /// The parent that holds it.
    public var parentType: String
    /// The parent's id.
    public var parentID: CoordinatorID
    /// Seconds since the session started, when it was done (dismissed).
    public var doneAt: Double

    /// The sentence reports show in place of a retention reason.
    public var text: String {
        "kept for reuse by \(parentType)#\(parentID) (done at \(Seconds(doneAt)); up to \(limit) kept by design)"
    }
}
