/// Which two sessions the page compares (`/api/compare?a=RUN&b=RUN`, or `?b=RUN&previous=1` for the session of the
/// same app heard from before B) and with which grace period.
struct CompareQuery: Hashable {
    /// A, the baseline; nil: the previous session of B's app.
    var a: String?
    /// B, the session compared with A.
    var b: String
    /// nil: the inspector's grace period.
    var grace: Double?

    static func read(_ query: [String: String]) -> Result<CompareQuery, ViewQuery.Problem> {
        guard let b = query["b"], !b.isEmpty else { return .failure(ViewQuery.Problem(message: "`b` is missing: the run id of the session to compare")) }
        let a = query["a"].flatMap { $0.isEmpty ? nil : $0 }
        let previous = query["previous"] == "1"
        if a != nil, previous { return .failure(ViewQuery.Problem(message: "give `a` or `previous=1`, not both")) }
        if a == nil, !previous {
            return .failure(ViewQuery.Problem(message: "`a` is missing: the run id of the baseline session, or `previous=1` for the previous run of B's app"))
        }
        // The grace period is read as every view reads it, with the same bounds.
        switch ViewQuery.read(run: b, query) {
        case .success(let view): return .success(CompareQuery(a: a, b: b, grace: view.grace))
        case .failure(let problem): return .failure(problem)
        }
    }
}
