import CoordinatorWire

/// `check --format json`: keys in the documented order (Foundation's encoder does not keep an order), always valid
/// JSON whatever the recording holds.
package enum CheckJSONReport {
    /// `{"grace":G,"sessions":[…],"retained":N,"undecided":M}`, documented in docs/CLI.md; call sites' files as
    /// `paths` prints them.
    package static func json(for result: CheckResult, paths: SourcePaths = SourcePaths()) -> String {
        var out = ""
        write(for: result, paths: paths) { out += $0 }
        return out
    }

    /// The same JSON handed to `emit` a piece at a time, a coordinator's object at most: a report of long string ids
    /// runs to several times the recording's size, and is never held whole.
    package static func write(for result: CheckResult, paths: SourcePaths = SourcePaths(), to emit: (String) -> Void) {
        emit("{\"grace\":\(JSONText.number(result.grace)),\"sessions\":[")
        for (index, check) in result.sessions.enumerated() {
            if index > 0 { emit(",") }
            session(check, paths: paths, notes: noted(result, index), to: emit)
        }
        var end = "],\"retained\":\(result.retained),\"undecided\":\(result.undecided)"
        // With --baseline or --history only: each leak's note, and how many leaks fail the run.
        if !result.notes.isEmpty { end += ",\"failing\":\(result.failingRetained)" }
        emit(end + "}")
    }

    /// `[{"id":…,"known":B,"note":…}]` for the session's retained coordinators, or nil when the result has no notes.
    private static func noted(_ result: CheckResult, _ index: Int) -> String? {
        guard !result.notes.isEmpty else { return nil }
        let notes = result.sessions[index].snapshot.retained.compactMap { node in
            result.notes.note(session: index, id: node.id).map {
                "{\"id\":\(node.id.json),\"known\":\($0.accepted),\"note\":\(JSONText.quoted($0.text))}"
            }
        }
        return "[" + notes.joined(separator: ",") + "]"
    }

    private static func session(_ check: SessionCheck, paths: SourcePaths, notes: String?, to emit: (String) -> Void) {
        let snapshot = check.snapshot
        var index = PathIndex(snapshot)
        var head = "{\"app\":\(JSONText.quoted(snapshot.app)),\"run\":\(JSONText.quoted(snapshot.run)),"
        head += "\"evaluatedAt\":\(JSONText.number(snapshot.evaluatedAt)),\"ended\":\(snapshot.ended),"
        if let stopped = check.stoppedWithoutEnd { head += "\"stoppedWithoutEnd\":\(JSONText.quoted(stopped))," }
        emit(head + "\"coordinators\":[")
        for (position, node) in snapshot.nodes.enumerated() {
            emit((position > 0 ? "," : "") + coordinator(node, path: index.path(to: node.id), heldBy: snapshot.heldBy[node.id], paths: paths, in: snapshot))
        }
        var tail = "],\"causes\":[" + snapshot.causeGroups().map(cause).joined(separator: ",") + "],"
        tail += "\"undecided\":[" + check.undecided.map(undecided).joined(separator: ",") + "],"
        tail += "\"warnings\":[" + snapshot.warnings.map(warning).joined(separator: ",") + "]"
        if let notes { tail += ",\"notes\":" + notes }
        emit(tail + "}")
    }

    private static func coordinator(
        _ node: SnapshotNode, path: (ids: [CoordinatorID], omitted: Int), heldBy: HeldBy?, paths: SourcePaths, in snapshot: Snapshot
    ) -> String {
        "{\"id\":\(node.id.json),\"type\":\(JSONText.quoted(node.type)),\"parent\":\(node.parent?.json ?? "null"),"
            + "\"verdict\":\"\(node.verdict.rawValue)\",\"reason\":\(node.reason.map(JSONText.quoted) ?? "null"),"
            // A leak's kind as `diff`, baselines and the history print it (with `path`'s types, its fingerprint).
            + (node.verdict == .retained ? "\"reasonKind\":\"\(node.leakReasonKind.rawValue)\"," : "")
            + (node.watched == true ? "\"watched\":true," : "")
            + "\"added\":\(site(node.site, paths)),\"bound\":\(site(node.boundSite, paths)),"
            + "\"dismissed\":\(site(node.dismissedSite, paths)),\"removed\":\(site(node.removedSite, paths)),"
            + "\"path\":[\(path.ids.map(\.json).joined(separator: ","))],\"omittedSteps\":\(path.omitted)"
            + (heldBy.map { ",\"heldBy\":" + held($0, trace: node.verdict == .retained ? snapshot.leakTrace(of: node.id, heldBy: $0) : nil) } ?? "")
            + "}"
    }

    /// `{"cause":…,"count":N,"ids":[…],"heldThrough":[{"id":…,"through":…}]}`: the leaks one cause keeps.
    private static func cause(_ group: CauseGroup) -> String {
        let through = group.heldThrough.map { "{\"id\":\($0.id.json),\"through\":\($0.through.json)}" }
        return "{\"cause\":\(JSONText.quoted(group.cause.description)),\"cycle\":\(group.cause.isCycle),\"count\":\(group.count),"
            + "\"ids\":[\(group.ids.map(\.json).joined(separator: ","))],\"heldThrough\":[\(through.joined(separator: ","))]}"
    }

    /// `{"outcome":"live","visited":N,"steps":[{"holder":…,"holderId":…,"field":…,"kind":…,"closure":…,"leaking":…,
    /// "suspect":…}]}`, `closure` only when the hook named one; a retained coordinator's trace says of each holder
    /// whether it is leaking (`no`, `yes`, `unknown`) and marks the suspect references.
    private static func held(_ held: HeldBy, trace: LeakTrace?) -> String {
        let steps = held.steps.enumerated().map { index, step in
            "{\"holder\":\(JSONText.quoted(step.holder)),\"holderId\":\(step.holderID?.json ?? "null"),"
                + "\"field\":\(JSONText.quoted(step.field)),\"kind\":\(JSONText.quoted(step.kind))"
                + (step.closure.map { ",\"closure\":\(JSONText.quoted($0))" } ?? "")
                + (trace.map { ",\"leaking\":\"\($0.states[index].rawValue)\",\"suspect\":\($0.suspects.contains(index))" } ?? "") + "}"
        }
        return "{\"outcome\":\"\(held.outcome.rawValue)\",\"visited\":\(held.visited),\"steps\":[\(steps.joined(separator: ","))]}"
    }

    /// `{"file":…,"line":…,"function":…}` (function null when not sent), or null without a call site.
    private static func site(_ site: CallSite?, _ paths: SourcePaths) -> String {
        guard let site else { return "null" }
        return "{\"file\":\(JSONText.quoted(paths.file(for: site))),\"line\":\(site.line),"
            + "\"function\":\(site.function.map(JSONText.quoted) ?? "null")}"
    }

    private static func undecided(_ item: UndecidedCoordinator) -> String {
        "{\"id\":\(item.node.id.json),\"type\":\(JSONText.quoted(item.node.type)),\"reason\":\(JSONText.quoted(item.reason))}"
    }

    private static func warning(_ diagnostic: Diagnostic) -> String {
        "{\"line\":\(diagnostic.line),\"message\":\(JSONText.quoted(diagnostic.message))}"
    }
}

/// JSON literals written by hand, for reports whose key order is part of their contract.
enum JSONText {
    /// A JSON string literal, quotes included.
    static func quoted(_ text: String) -> String {
        JSONString.quoted(text)
    }

    /// A JSON number; a value that is not finite, which JSON cannot say, becomes `null`.
    static func number(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        return value == value.rounded() && Swift.abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}
