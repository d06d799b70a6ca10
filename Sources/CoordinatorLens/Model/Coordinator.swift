/// Everything the stream has said about one coordinator so far.
package struct Coordinator: Hashable, Sendable {
    /// Its id within the session, as the stream sent it.
    package let id: CoordinatorID
    /// Its Swift type name, from the `add` that first reported it.
    package var type: String
    /// The coordinator it is attached to now; it stays set when that parent deinits, so the tree shows who outlived whom.
    package var parent: CoordinatorID?
    /// Attached children, in the order they were attached.
    package var children: [CoordinatorID] = []
    /// The screen it was last bound to (for example its first view controller's type); nil if never bound.
    package var screen: String?
    /// Seconds since the session started, at its first `add`; a later move does not change it.
    package var addedAt: Double
    /// Where its first `add` was called; nil when the producer sent no call site.
    package var addedSite: CallSite?
    /// Where it was last bound to a screen; nil if never bound or sent without a call site.
    package var boundSite: CallSite?
    /// Seconds since the session started, at its first `dismiss`; nil if never dismissed.
    package var dismissedAt: Double?
    /// Not a coordinator but an object a `watch` event handed over to die with `parent`: done when that one is done.
    /// (Kept beside `dismissedAt`, in the spare bytes after it, so coordinators cost nothing more.)
    package var diesWithParent = false
    /// Where that first `dismiss` was called; nil when a screen's deallocation dismissed it or no site was sent.
    package var dismissedSite: CallSite?
    /// How that first `dismiss` came about; nil if never dismissed.
    package var dismissedVia: DismissalCause?
    /// When a `remove` detached it; cleared when an `add` attaches it again.
    package var removedAt: Double?
    /// The parent a `remove` detached it from; cleared when an `add` attaches it again.
    package var removedFrom: CoordinatorID?
    /// Where that `remove` was called; cleared with `removedFrom`.
    package var removedSite: CallSite?
    /// When its parent deinited while it was still attached; cleared when an `add` attaches it again.
    package var orphanedAt: Double?
    /// Seconds since the session started, when it was deallocated; nil while it is alive.
    package var deinitAt: Double?
    /// Each time it was dismissed and then shown again, oldest first; a reappearance clears the dismissal it follows.
    package var shownAgain: [Reappearance] = []

    /// A coordinator as its first `add` reports it (`parent` nil: a root); later events fill in the rest.
    package init(id: CoordinatorID, type: String, parent: CoordinatorID?, addedAt: Double, addedSite: CallSite?) {
        self.id = id
        self.type = type
        self.parent = parent
        self.addedAt = addedAt
        self.addedSite = addedSite
    }

    /// The first moment its screen or its parent let go of it, if any has.
    package var doneAt: Double? {
        earliest(earliest(dismissedAt, removedAt), orphanedAt)
    }
}

private func earliest(_ a: Double?, _ b: Double?) -> Double? {
    guard let a else { return b }
    guard let b else { return a }
    return Swift.min(a, b)
}
