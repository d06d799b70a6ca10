/// Who holds a retained coordinator, as the hook's retainer search found it in the running app (a `held` line): the
/// strong references from a living coordinator or screen, or from the coordinator itself around a cycle, to it.
public struct HeldBy: Hashable, Sendable, Codable {
    /// How the search ended.
    public enum Outcome: String, Hashable, Sendable, Codable, CaseIterable {
        /// A living coordinator or its screen holds it, through `steps`.
        case live
        /// It holds itself: `steps` go from it back to it.
        case cycle
        /// Nothing the search could see holds it (a global or static, a timer, an observer, a pending closure).
        case unreachable
        /// The search stopped at its budget.
        case budget
        /// A path was found, but a reference on it no longer held when read again: other threads changed the graph
        /// while it was searched. `steps` are what was seen.
        case changed
        /// No search ran; `reason` says why.
        case notSearched = "unsearched"
    }

    /// One strong reference on the way.
    public struct Step: Hashable, Sendable, Codable {
        /// The holder's type name.
        public var holder: String
        /// The holder's coordinator id, when it is one of the session's coordinators.
        public var holderID: CoordinatorID?
        /// Where in the holder: `router`, `completions["ShareViewController"]`, `onSend`.
        public var field: String
        /// `property`, `element`, `closure` (a closure whose context is the object, or a bound method), `capture` or
        /// `captured-var`.
        public var kind: String
        /// The closure the reference is in, as the compiler names it (`closure #1 in HomeViewModel.init(router:)`, or
        /// a bound method), when the hook could name its code; nil otherwise.
        public var closure: String?

        /// A step as the wire gives it.
        package init(holder: String, holderID: CoordinatorID?, field: String, kind: String, closure: String? = nil) {
            self.holder = holder
            self.holderID = holderID
            self.field = field
            self.kind = kind
            self.closure = closure
        }

        /// `Router.completions["ShareViewController"] (captured by closure #1 in Router.add(_:))`; a plain property
        /// shows no kind.
        public var text: String {
            let name = holderID.map { "\(holder)#\($0)" } ?? holder
            // A root with no field of its own (a task, an image's global) shows its name alone.
            return name + (field.isEmpty ? "" : ".\(field)") + kindText
        }

        /// ` (capture)`, ` (captured by closure #1 in Router.add(_:))`, ` (closure #2 in Flow.start())`: the
        /// hook's wording of the same step, so its description and every output read alike.
        var kindText: String {
            switch (kind, closure) {
            case ("property", _): ""
            case ("closure", let name?): name.contains("closure #") ? " (\(name))" : " (closure \(name))"
            case ("capture", let name?): " (captured by \(name))"
            case ("captured-var", let name?): " (var captured by \(name))"
            default: " (\(kind))"
            }
        }
    }

    public var outcome: Outcome
    /// From the living holder (or the coordinator, for a cycle) down to the coordinator.
    public var steps: [Step]
    /// Objects the search looked at.
    public var visited: Int
    /// Why no search ran, what ended the branches it could not follow, or why its path is stale.
    public var reason: String?

    /// A search's result.
    package init(outcome: Outcome, steps: [Step], visited: Int, reason: String? = nil) {
        self.outcome = outcome
        self.steps = steps
        self.visited = visited
        self.reason = reason
    }

    /// The leak trace in one line, ending at `target` (`ShareCoordinator#7`), or what the search could not find.
    public func text(target: String) -> String {
        switch outcome {
        case .live, .cycle: return (steps.map(\.text) + [target]).joined(separator: " › ") + (outcome == .cycle ? " (a cycle)" : "")
        case .unreachable:
            // Only what the search started from, never a list of guesses.
            return "not reached from what the search started from, and in no cycle (\(visited) objects looked at)" + (reason.map { "; \($0)" } ?? "")
        case .budget: return "the search stopped at its budget after \(visited) objects"
        case .changed: return "the graph changed while it was searched; last seen: " + (steps.map(\.text) + [target]).joined(separator: " › ")
        case .notSearched: return "not searched: \(reason ?? "no reason given")"
        }
    }

    /// The reference that keeps the coordinator, the last step, without positions (`HomeCoordinator.children[]
    /// (element)`): the same for 18 products one array holds, so CI formats group them as one finding; nil when the
    /// search found no holder.
    public var suspect: String? {
        guard outcome == .live || outcome == .cycle, let last = steps.last else { return nil }
        return "\(last.holder).\(Self.withoutPositions(last.field))" + (last.kind == "property" ? "" : " (\(last.kind))")
    }

    /// Whether the search shows that `holder` does not hold the coordinator itself: the path it found ends at another
    /// object's reference, or nothing living holds it. False when it did not finish (budget, changed, not searched),
    /// as that shows nothing.
    package func rulesOut(holder: CoordinatorID) -> Bool {
        switch outcome {
        case .live, .cycle: steps.last.map { $0.holderID != holder } ?? false
        case .unreachable: true
        case .budget, .changed, .notSearched: false
        }
    }

    /// The reference that holds the coordinator, as a reason names it: `suspect`, `in a cycle` when the path goes
    /// round through the coordinator itself; nil when the search found no holder.
    var holderText: String? {
        suspect.map { outcome == .cycle ? "\($0) in a cycle" : $0 }
    }

    /// `children[12].screen` → `children[].screen`: an index in brackets left out, keys in quotes kept.
    static func withoutPositions(_ field: String) -> String {
        var out = ""
        var pending = ""
        var inBrackets = false
        for character in field {
            if inBrackets {
                pending.append(character)
                guard character == "]" else {
                    if !character.isNumber, character != "[" { (out, pending, inBrackets) = (out + pending, "", false) }
                    continue
                }
                out += pending.allSatisfy { $0.isNumber || $0 == "[" || $0 == "]" } ? "[]" : pending
                (pending, inBrackets) = ("", false)
            } else if character == "[" {
                (pending, inBrackets) = ("[", true)
            } else {
                out.append(character)
            }
        }
        return out + pending
    }

    /// The `label` of a `held` line: fields apart by U+001F, steps apart by U+001E; nil when it does not read.
    package static func steps(fromWire text: String) -> [Step]? {
        guard !text.isEmpty else { return [] }
        var steps: [Step] = []
        for step in text.split(separator: "\u{1E}", omittingEmptySubsequences: false) {
            let fields = step.split(separator: "\u{1F}", omittingEmptySubsequences: false)
            guard fields.count == 4, !fields[0].isEmpty else { return nil }
            let id = fields[1].isEmpty ? nil : Int(fields[1]).map { CoordinatorID($0) }
            steps.append(Step(holder: String(fields[0]), holderID: id, field: String(fields[2]), kind: String(fields[3])))
        }
        return steps
    }

    /// `steps` with the closure names of a `held` line's `closures` (one per step, empty for none, apart by U+001E);
    /// nil when they are not one per step.
    package static func steps(_ steps: [Step], namingClosures text: String) -> [Step]? {
        let names = text.split(separator: "\u{1E}", omittingEmptySubsequences: false)
        guard names.count == steps.count else { return nil }
        return zip(steps, names).map { step, name in
            var step = step
            step.closure = name.isEmpty ? nil : String(name)
            return step
        }
    }
}
