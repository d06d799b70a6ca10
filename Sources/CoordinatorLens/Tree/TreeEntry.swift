/// One coordinator as its session's tree stores it: the coordinator, its children and its own place among its
/// parent's.
///
/// One element rather than a list for each (coordinators, children, slots, stale counts): an `add` appends once, not
/// four times, and a coordinator's fields and its links are read from one place.
struct TreeEntry: Sendable {
    /// The coordinator, its `children` left empty: they are in `children` here.
    var coordinator: Coordinator
    /// Its children, attached in order, stale entries included.
    var children = ChunkedArray<CoordinatorID>()
    /// Its position in its parent's `children`, or in the roots when it is one; -1 while in neither.
    var slot = 0
    /// How many entries of `children` are stale.
    var staleChildren = 0
    /// How many coordinators were removed from it and not added anywhere since (their `removedFrom`): a path goes
    /// through the parent a coordinator left, so with none of these and no living child it is nobody's ancestor.
    var formerChildren = 0
    /// Those coordinators, for the parent-cycle check's walk down a moved subtree; entries of ones added again since
    /// stay until the list is compacted, so a reader checks each one's `removedFrom`.
    var formerChildIDs: [CoordinatorID] = []

    /// Whether another coordinator's path may pass through it: moving it needs the parent-cycle check only then.
    var mayBeAnAncestor: Bool { children.count > staleChildren || formerChildren > 0 }
}
