/// Who holds a retained coordinator, found in the running app as LeakCanary's leak trace is: the strong references
/// from a living coordinator or its screen (or, in a cycle, from the coordinator itself) to it.
public struct RetainerPath: Sendable, Equatable, CustomStringConvertible {
    /// How the search ended.
    public enum Outcome: String, Sendable {
        /// A living coordinator or its screen, a global, another leak, or a root found back from it (a task, a
        /// scheduled timer) holds it, through `steps`.
        case live
        /// It holds itself: `steps` lead from it back to it.
        case cycle
        /// Nothing the search started from reaches it (living coordinators and screens, the app's globals and
        /// statics, the other leaks; `reason` lists them), it is in no cycle, and going back from it found no root
        /// (`reason` says what it found).
        case unreachable
        /// The search stopped at its object or time budget (`RetainerSearchOptions`) before it found a holder.
        case budget
        /// A path was found, but a reference on it no longer held the next object when read again (other threads
        /// changed the graph during the search, twice): `steps` are what was seen.
        case changed
        /// No search ran: `reason` says why (turned off, this process cannot read its own memory safely, the runtime is
        /// not one the walker knows, out of time).
        case notSearched = "unsearched"
    }

    /// What a step's reference is.
    public enum Kind: String, Sendable {
        /// A stored property (through structs, enums and optionals inside it).
        case property
        /// An element (or key) of an array, dictionary or set.
        case element
        /// A closure whose context is the object itself: a closure that captures only it, or a bound method.
        case closure
        /// A value a closure captured.
        case capture
        /// A `var` a closure captured (kept in a box).
        case capturedVar = "captured-var"
    }

    /// One strong reference on the way.
    public struct Step: Sendable, Equatable {
        /// The holder's type name.
        public var holder: String
        /// The holder's id when it is a coordinator of this session.
        public var holderID: Int?
        /// Where in the holder: `router`, `completions[ShareViewController]`, `onSend`.
        public var field: String
        /// What the reference is.
        public var kind: Kind
        /// The closure the reference is in, named as the compiler names it (`closure #1 in HomeViewModel.init(router:)`,
        /// or a bound method), when a closure's field holds it and the app's symbol table names its code; nil otherwise.
        public var closure: String? = nil

        /// ` (capture)`, ` (captured by closure #1 in Router.add(_:))`; nothing for a plain property.
        var kindText: String {
            switch (kind, closure) {
            case (.property, _): ""
            case (.closure, let name?): name.contains("closure #") ? " (\(name))" : " (closure \(name))"
            case (.capture, let name?): " (captured by \(name))"
            case (.capturedVar, let name?): " (var captured by \(name))"
            default: " (\(kind.rawValue))"
            }
        }
    }

    /// The retained coordinator's id.
    public var coordinator: Int
    /// Its type name.
    public var type: String
    /// How the search ended: a holder found (`live`, `cycle`), none (`unreachable`, `budget`), or no search.
    public var outcome: Outcome
    /// From the holder that is alive (or the coordinator itself, for a cycle) to the coordinator.
    public var steps: [Step]
    /// Objects the search looked at.
    public var visited: Int
    /// Why no search ran, what ended the branches the search could not follow, or why a path is stale.
    public var reason: String?

    init(coordinator: Int, type: String, outcome: Outcome, steps: [Step], visited: Int, reason: String? = nil) {
        self.coordinator = coordinator
        self.type = type
        self.outcome = outcome
        self.steps = steps
        self.visited = visited
        self.reason = reason
    }

    /// What an unreachable result says, in the hook's description and the core's text alike; `reason` then says what
    /// the search started from and what ended its branches.
    static let notReached = "not reached from what the search started from, and in no cycle"

    /// `BrowserCoordinator#1.router › Router.completions[ShareViewController] (capture) › ShareCoordinator#7`.
    public var description: String {
        switch outcome {
        case .unreachable:
            return "\(type)#\(coordinator): \(Self.notReached) (\(visited) objects looked at)" + (reason.map { "; \($0)" } ?? "")
        case .budget:
            return "\(type)#\(coordinator): the search stopped at its budget after \(visited) objects"
        case .notSearched:
            return "\(type)#\(coordinator): not searched: \(reason ?? "no reason given")"
        case .live, .cycle, .changed:
            let chain = steps.map { step in
                let holder = step.holderID.map { "\(step.holder)#\($0)" } ?? step.holder
                return holder + (step.field.isEmpty ? "" : ".\(step.field)") + step.kindText
            }
            let path = (chain + ["\(type)#\(coordinator)"]).joined(separator: " › ")
            return outcome == .changed ? "the graph changed while it was searched; last seen: \(path)" : path
        }
    }
}

/// Bounds on the retainer search `end()` (and `Tracer.searchRetainers()`) runs for coordinators still alive after
/// they were done.
///
/// ```swift
/// TraceOptions(retainerSearch: RetainerSearchOptions(isEnabled: false))  // no search at end()
/// ```
public struct RetainerSearchOptions: Sendable {
    /// Off: no search, no `held` lines.
    public var isEnabled: Bool = true
    /// Objects looked at per retained coordinator, at most.
    public var maximumObjects: Int = 10_000
    /// Seconds of the searching thread's CPU time per retained coordinator, at most (CPU, so a busy machine slows the
    /// search without cutting it short; `totalTimeBudget` bounds the wall time).
    public var timeBudget: Double = 0.25
    /// Wall-clock seconds spent on all of them in one search; the rest are reported as over budget.
    public var totalTimeBudget: Double = 2
    /// Whether a step through a dictionary names a `String` key by its text (`completions["settings"]`, its first 40
    /// characters); off, by its type and a short hash of it (`completions[String#5e0a7c]`), so no app text leaves the
    /// process in a `held` line.
    public var sendsKeyText: Bool = false
    /// Whether a leak that no path from a living coordinator, a screen, a global or another leak reaches is searched
    /// back from (Linux): the memory that holds its address, and what holds that, up to a task, a timer or a global.
    /// Within `timeBudget`; off, its `unreachable` line says only what the search started from.
    public var searchesBack: Bool = true

    /// Bounds for the search; the defaults suit a debug build.
    public init(
        isEnabled: Bool = true, maximumObjects: Int = 10_000, timeBudget: Double = 0.25, totalTimeBudget: Double = 2, sendsKeyText: Bool = false,
        searchesBack: Bool = true
    ) {
        self.isEnabled = isEnabled
        self.maximumObjects = maximumObjects
        self.timeBudget = timeBudget
        self.totalTimeBudget = totalTimeBudget
        self.sendsKeyText = sendsKeyText
        self.searchesBack = searchesBack
    }
}
