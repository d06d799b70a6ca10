import CoordinatorWire

/// `check --format sarif`: a SARIF 2.1.0 log for code scanning (GitHub, Azure DevOps, IDE viewers).
///
/// One run; one result per retained coordinator (rule: its reason kind), located at the line that added it, with the
/// holder's add site and, for a detached one, the `remove` call as related locations, and its leak fingerprint and its
/// cause (the leaks of one bug share it) as partial fingerprints. Undecided coordinators
/// are results of rule `undecided` (level `error`, `warning` with `--allow-undecided`), late ones of rule `late`
/// (`note`). Problems in the input are tool execution notifications at their line in the recording, as SARIF keeps
/// them apart from results. A coordinator without a call site is located at its recording.
package enum SARIFReport {
    /// The rules every log lists, in this order, so `ruleIndex` is stable.
    static let rules: [(id: String, name: String, description: String, level: String)] = [
        ("still-child", "StillChild", "A finished coordinator is still attached under a living parent: it was never removed.", "error"),
        ("detached", "Detached", "A finished coordinator was removed from its parent but something else still holds it.", "error"),
        ("outlived-parent", "OutlivedParent", "A coordinator outlived the parent it was attached to.", "error"),
        ("undecided", "Undecided", "The run ended within the grace period of a finished coordinator, so it could not be judged.", "error"),
        ("late", "LateRelease", "A finished coordinator was freed, but later than the grace period.", "note"),
        ("outlived-owner", "OutlivedOwner", "An object watched with a coordinator (a view model, a screen) outlived it.", "error"),
        ("kept-with-owner", "KeptWithOwner", "An object watched with a coordinator stays with it: that coordinator is done but still alive.", "error"),
    ]

    /// The SARIF log as JSON text.
    package static func json(for result: CheckResult, allowingUndecided: Bool = false, paths: SourcePaths = SourcePaths()) -> String {
        let findings = result.findings(allowingUndecided: allowingUndecided, paths: paths)
        let results = findings.filter { $0.kind != .inputWarning }.map { self.result($0, in: result, paths: paths) }
        let notifications = findings.filter { $0.kind == .inputWarning }.map(notification)
        var out = #"{"$schema":"https://json.schemastore.org/sarif-2.1.0.json","version":"2.1.0","runs":[{"#
        out += #""tool":{"driver":{"name":"coordlens","rules":["#
        out += rules.map(rule).joined(separator: ",") + "]}},"
        out += #""invocations":[{"executionSuccessful":true,"toolExecutionNotifications":["#
        out += notifications.joined(separator: ",") + "]}],"
        out += #""properties":{"grace":\#(JSONText.number(result.grace)),"retained":\#(result.retained),"undecided":\#(result.undecided),"#
        out += #""sessions":["# + result.sessions.map(session).joined(separator: ",") + "]},"
        out += #""results":["# + results.joined(separator: ",") + "]}]}"
        return out
    }

    private static func rule(_ rule: (id: String, name: String, description: String, level: String)) -> String {
        "{\"id\":\(quoted(rule.id)),\"name\":\(quoted(rule.name)),\"shortDescription\":{\"text\":\(quoted(rule.description))},"
            + "\"defaultConfiguration\":{\"level\":\(quoted(rule.level))}}"
    }

    private static func session(_ check: SessionCheck) -> String {
        "{\"app\":\(quoted(check.snapshot.app)),\"run\":\(quoted(check.snapshot.run)),\"source\":\(quoted(check.source))}"
    }

    private static func result(_ finding: CheckFinding, in result: CheckResult, paths: SourcePaths) -> String {
        let check = result.sessions[finding.session]
        var out = "{\"ruleId\":\(quoted(finding.rule)),"
        if let index = rules.firstIndex(where: { $0.id == finding.rule }) { out += "\"ruleIndex\":\(index)," }
        out += "\"level\":\(quoted(level(finding.severity))),"
        let cause = finding.cause.map { "cause: " + TextSanitizer.visible($0.description) + "; " } ?? ""
        out += "\"message\":{\"text\":\(quoted(TextSanitizer.visible(finding.message) + " (" + cause + "path: " + TextSanitizer.visible(finding.path) + ")"))},"
        if let site = finding.site {
            out += "\"locations\":[\(location(file: paths.file(for: site), line: site.line))],"
        } else if check.source != "<stdin>", !check.source.isEmpty {
            out += "\"locations\":[\(location(file: check.source, line: 0))],"
        }
        var related: [String] = []
        if let holder = finding.holder, let site = holder.site {
            let role = holder.id == finding.node?.parent ? "its parent" : "the parent it was removed from"
            let text = TextSanitizer.visible("\(holder.type)#\(holder.id), \(role), was added here")
            related.append(location(file: paths.file(for: site), line: site.line, id: related.count + 1, message: text))
        }
        if let node = finding.node, let site = node.removedSite {
            let text = TextSanitizer.visible("\(node.type)#\(node.id) was removed here")
            related.append(location(file: paths.file(for: site), line: site.line, id: related.count + 1, message: text))
        }
        if !related.isEmpty { out += "\"relatedLocations\":[" + related.joined(separator: ",") + "]," }
        if let node = finding.node {
            let types = check.snapshot.path(to: node.id).map(\.type)
            // Leaks fingerprint as `diff` does; undecided and late ones by their type path and rule.
            let fingerprint =
                RetentionKind(rawValue: finding.rule).map { LeakFingerprint(types: types, reasonKind: $0).description }
                ?? types.joined(separator: "/") + " (\(finding.rule))"
            // The cause as a fingerprint too: a viewer that groups by one groups the leaks of one bug.
            let causeFingerprint = finding.cause.map { ",\"leakCause/v1\":\(quoted($0.description))" } ?? ""
            out += "\"partialFingerprints\":{\"coordinatorLeak/v1\":\(quoted(fingerprint))\(causeFingerprint)},"
            out += "\"properties\":{\"app\":\(quoted(check.snapshot.app)),\"run\":\(quoted(check.snapshot.run)),"
            out += "\"id\":\(node.id.json),\"type\":\(quoted(node.type)),\"path\":\(quoted(finding.path))"
            if let cause = finding.cause { out += ",\"cause\":\(quoted(cause.description))" }
            if let through = finding.heldThrough { out += ",\"heldThrough\":\(through.id.json)" }
            out += "}"
        } else {
            out += "\"properties\":{}"
        }
        return out + "}"
    }

    private static func notification(_ finding: CheckFinding) -> String {
        var out = "{\"level\":\(quoted(level(finding.severity))),\"message\":{\"text\":\(quoted(TextSanitizer.visible(finding.message)))}"
        if let input = finding.inputFile { out += ",\"locations\":[\(location(file: input.path, line: input.line))]" }
        return out + "}"
    }

    private static func level(_ severity: CheckFinding.Severity) -> String {
        severity.rawValue
    }

    /// A location in `file` (a region only for a known line), optionally with an id and a message.
    private static func location(file: String, line: Int, id: Int? = nil, message: String? = nil) -> String {
        var out = "{"
        if let id { out += "\"id\":\(id)," }
        out += "\"physicalLocation\":{\"artifactLocation\":{\"uri\":\(quoted(uri(file)))}"
        if line > 0 { out += ",\"region\":{\"startLine\":\(line)}" }
        out += "}"
        if let message { out += ",\"message\":{\"text\":\(quoted(message))}" }
        return out + "}"
    }

    /// A URI reference for a path: unreserved characters and `/` stay, every other byte is percent-encoded; an
    /// absolute path becomes a `file://` URI.
    static func uri(_ path: String) -> String {
        var out = path.hasPrefix("/") ? "file://" : ""
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = String(byte, radix: 16, uppercase: true)
                out += "%" + (hex.count == 1 ? "0" + hex : hex)
            }
        }
        return out
    }

    private static func quoted(_ text: String) -> String {
        JSONString.quoted(text)
    }
}
