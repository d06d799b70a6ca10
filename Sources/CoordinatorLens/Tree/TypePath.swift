/// A coordinator's place in its tree in terms that survive between runs (ids do not): the types from the root down,
/// each with its ordinal among the siblings of the same type, as `AppCoordinator/MainTabCoordinator/FeedCoordinator[0]`.
///
/// Written out, an ancestor's ordinal shows only when it is not 0, and the coordinator's own ordinal always shows, so
/// the text is short for the usual single child and still names exactly one coordinator.
public struct TypePath: Hashable, Sendable, CustomStringConvertible {
    /// One step down the tree: a type, and which of the same-type siblings it is, counted from 0 in the order added.
    public struct Step: Hashable, Sendable {
        /// The coordinator's Swift type name.
        public var type: String
        /// Which of the same-type siblings it is, from 0 in the order they were added.
        public var ordinal: Int

        /// The `ordinal`-th child of type `type`, counting from 0.
        package init(type: String, ordinal: Int) {
            self.type = type
            self.ordinal = ordinal
        }
    }

    /// The steps from the root down to the coordinator.
    public var steps: [Step]

    /// A path from its steps, root first.
    package init(_ steps: [Step]) {
        self.steps = steps
    }

    /// The types alone, root first: what a leak fingerprint keeps.
    public var types: [String] { steps.map(\.type) }

    /// The path as text; past `DeepPath.maximumSteps` steps, the root, `… N more` and the last `DeepPath.keptSteps`.
    public var description: String {
        var parts: [String] = []
        parts.reserveCapacity(Swift.min(steps.count, DeepPath.maximumSteps))
        for (index, step) in steps.enumerated() {
            let isLast = index == steps.count - 1
            if steps.count > DeepPath.maximumSteps, index > 0, index < steps.count - DeepPath.keptSteps {
                if index == 1 { parts.append(DeepPath.omission(steps.count - DeepPath.keptSteps - 1)) }
                continue
            }
            parts.append(isLast || step.ordinal > 0 ? "\(step.type)[\(step.ordinal)]" : step.type)
        }
        return parts.joined(separator: "/")
    }
}
