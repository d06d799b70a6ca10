import CoordinatorLens
import CoordinatorTrace

extension HeldBy {
    /// The hook's search result as the core reads it from a `held` line, so a test failure groups leaks as `check` does.
    init(_ path: RetainerPath) {
        let steps = path.steps.map {
            HeldBy.Step(holder: $0.holder, holderID: $0.holderID.map { CoordinatorID($0) }, field: $0.field, kind: $0.kind.rawValue, closure: $0.closure)
        }
        self.init(outcome: Outcome(rawValue: path.outcome.rawValue) ?? .notSearched, steps: steps, visited: path.visited, reason: path.reason)
    }
}
