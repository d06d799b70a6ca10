import CoordinatorWire

/// `check --format json`: keys in the documented order (Foundation's encoder does not keep an order), always valid
/// JSON whatever the recording holds.
public enum CheckJSONReport {
    /// `{"grace":G,"sessions":[…],"retained":N,"undecided":M}`, documented in the README.
    public static func json(for result: CheckResult) -> String {
        var out = "{\"grace\":\(JSONText.number(result.grace)),\"sessions\":["
        out += result.sessions.map(session).joined(separator: ",")
        out += "],\"retained\":\(result.retained),\"undecided\":\(result.undecided)}"
        return out
    }

    private static func session(_ check: SessionCheck) -> String {
        let snapshot = check.snapshot
        var out = "{\"app\":\(JSONText.quoted(snapshot.app)),\"run\":\(JSONText.quoted(snapshot.run)),"
        out += "\"evaluatedAt\":\(JSONText.number(snapshot.evaluatedAt)),\"ended\":\(snapshot.ended),"
        out += "\"coordinators\":[" + snapshot.nodes.map(coordinator).joined(separator: ",") + "],"
        out += "\"undecided\":[" + check.undecided.map(undecided).joined(separator: ",") + "],"
        out += "\"warnings\":[" + snapshot.warnings.map(warning).joined(separator: ",") + "]}"
        return out
    }

    private static func coordinator(_ node: SnapshotNode) -> String {
        "{\"id\":\(node.id),\"type\":\(JSONText.quoted(node.type)),\"parent\":\(node.parent.map(String.init) ?? "null"),"
            + "\"verdict\":\"\(node.verdict.rawValue)\",\"reason\":\(node.reason.map(JSONText.quoted) ?? "null")}"
    }

    private static func undecided(_ item: UndecidedCoordinator) -> String {
        "{\"id\":\(item.node.id),\"type\":\(JSONText.quoted(item.node.type)),\"reason\":\(JSONText.quoted(item.reason))}"
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
