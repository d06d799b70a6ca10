/// Why a leak stays, as one signature for every leak with the same bug (LeakCanary's signature of suspect
/// references): the suspect references' types and fields with positions and ids left out, or, when the retainer
/// search found no holder, what the tree says of it.
public struct LeakCause: Hashable, Sendable, CustomStringConvertible {
    /// `Router.completions[] (captured by closure #1 in Router.add(_:))`, one per suspect reference (every reference
    /// of a cycle); or `ProductCoordinator still a child of HomeCoordinator` when no search found a holder.
    public var references: [String]
    /// Whether the references go round from the leak back to it.
    public var isCycle: Bool

    /// A cause from its references.
    package init(references: [String], isCycle: Bool = false) {
        self.references = references
        self.isCycle = isCycle
    }

    /// `Router.completions[] (capture)`, `a cycle through Tab.onSelect (capture) › Tab.items[]`, or the tree's words.
    public var description: String {
        isCycle ? "a cycle through " + references.joined(separator: " › ") : references.joined(separator: " › ")
    }

    /// The suspect references of `trace`, a search's path `held` to a retained coordinator.
    init(trace: LeakTrace, held: HeldBy) {
        let steps = held.outcome == .cycle ? held.steps[...] : held.steps[trace.suspects]
        self.init(references: steps.map(Self.reference), isCycle: held.outcome == .cycle)
    }

    /// What the tree says keeps a leak when no search found its holder, with its own type, as reasons say it without
    /// ids: `ProductCoordinator still a child of HomeCoordinator`.
    init(treeReason reason: TreeReason) {
        let holder = reason.holder
        let words: String
        switch reason.kind {
        case .stillChild: words = holder.map { "still a child of \($0)" } ?? "still attached"
        case .detached: words = holder.map { "detached from \($0) and held elsewhere" } ?? "a root that is done and held elsewhere"
        case .outlivedParent: words = "outlived its parent" + (holder.map { " \($0)" } ?? "")
        case .overLimit: words = "more alive at once than allowed" + (holder.map { " under \($0)" } ?? "")
        case .outlivedOwner: words = "outlived its owner" + (holder.map { " \($0)" } ?? "")
        case .keptWithOwner: words = "kept with its owner" + (holder.map { " \($0)" } ?? "") + ", which is done"
        }
        self.init(references: ["\(reason.type) \(words)"])
    }

    /// `Router.completions[] (captured by closure #1 in Router.add(_:))`: the step's holder type and field, without
    /// the holder's id or any position; a screen's holder without its coordinator's id (`StackHost (screen of
    /// NavigationStackCoordinator)`). A dictionary's key is a position too: one router's completions keyed by screen
    /// keep their coordinators through one bug, whichever key each has.
    static func reference(_ step: HeldBy.Step) -> String {
        let holder = step.holder.contains("(screen of ") ? step.holder.replacing(#/#[^\s)]+/#, with: "") : step.holder
        let field = step.field.replacing(#/\[(?:"[^"]*"|[^\]"])*\]/#, with: "[]")
        return holder + (field.isEmpty ? "" : "." + field) + step.kindText
    }
}
