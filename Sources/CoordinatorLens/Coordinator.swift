/// Everything the stream has said about one coordinator so far.
public struct Coordinator: Hashable, Sendable {
    public let id: CoordinatorID
    public var type: String
    /// The coordinator it is attached to now; it stays set when that parent deinits, so the tree shows who outlived whom.
    public var parent: CoordinatorID?
    /// Attached children, in the order they were attached.
    public var children: [CoordinatorID] = []
    public var screen: String?
    public var addedAt: Double
    public var addedSite: CallSite?
    public var dismissedAt: Double?
    /// When a `remove` detached it; cleared when an `add` attaches it again.
    public var removedAt: Double?
    public var removedFrom: CoordinatorID?
    /// When its parent deinited while it was still attached; cleared when an `add` attaches it again.
    public var orphanedAt: Double?
    public var deinitAt: Double?

    public init(id: CoordinatorID, type: String, parent: CoordinatorID?, addedAt: Double, addedSite: CallSite?) {
        self.id = id
        self.type = type
        self.parent = parent
        self.addedAt = addedAt
        self.addedSite = addedSite
    }

    /// The first moment its screen or its parent let go of it, if any has.
    public var doneAt: Double? {
        earliest(earliest(dismissedAt, removedAt), orphanedAt)
    }
}

private func earliest(_ a: Double?, _ b: Double?) -> Double? {
    guard let a else { return b }
    guard let b else { return a }
    return Swift.min(a, b)
}
