/// `check --format junit`: JUnit XML, which CI systems (Jenkins, GitLab, Azure, GitHub test reporters) show as tests.
///
/// One `testsuite` per session (class name: the app). A coordinator type with nothing to report is one passing
/// `testcase`; a type with retained or undecided coordinators has one `testcase` per such coordinator, named by its
/// type and its place among them (`ProductCoordinator [2]`), each with exactly one `failure` (a leak; type: its
/// reason kind; text: its cause, where it was added and its path) or `error` (undecided: the run could not be judged). So
/// `tests` counts test cases, `failures` + `errors` never exceed it, and names stay the same from build to build
/// (types and order, unlike ids and run ids, do), so a CI system's history follows a leak. Late coordinators, and
/// undecided ones with `--allow-undecided`, are lines of their type's first case's `system-out`. Problems in the
/// input go to the suite's `system-err`, one per line.
package enum JUnitReport {
    /// The JUnit XML document.
    package static func xml(for result: CheckResult, allowingUndecided: Bool = false, paths: SourcePaths = SourcePaths()) -> String {
        let findings = result.findings(allowingUndecided: allowingUndecided, paths: paths)
        var suites: [String] = []
        var totals = (tests: 0, failures: 0, errors: 0)
        for (index, check) in result.sessions.enumerated() {
            let suite = self.suite(check, findings: findings.filter { $0.session == index }, paths: paths)
            suites.append(suite.text)
            totals.tests += suite.tests
            totals.failures += suite.failures
            totals.errors += suite.errors
        }
        var out = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
        out += "<testsuites name=\"coordlens check\" tests=\"\(totals.tests)\" failures=\"\(totals.failures)\" errors=\"\(totals.errors)\">\n"
        out += suites.joined()
        out += "</testsuites>\n"
        return out
    }

    private static func suite(_ check: SessionCheck, findings: [CheckFinding], paths: SourcePaths) -> (text: String, tests: Int, failures: Int, errors: Int) {
        let snapshot = check.snapshot
        var types: [String] = []
        var seen = Set<String>()
        for node in snapshot.nodes where seen.insert(node.type).inserted { types.append(node.type) }
        let byType = Dictionary(grouping: findings.filter { $0.node != nil }) { $0.node?.type ?? "" }
        var cases = ""
        var tests = 0
        var failures = 0
        var errors = 0
        for type in types {
            let mine = byType[type] ?? []
            // A leak the baseline accepts (a warning) is listed in system-out, not failed.
            let failing = mine.filter { ($0.kind == .retained || $0.kind == .undecided) && $0.severity == .error }
            let notes = mine.filter { finding in !failing.contains { $0.node?.id == finding.node?.id && $0.kind == finding.kind } }
            let output = notes.isEmpty ? "" : "      <system-out>\(notes.map { text($0.message) }.joined(separator: "\n"))</system-out>\n"
            guard !failing.isEmpty else {
                tests += 1
                let opening = "    <testcase name=\"\(text(type))\" classname=\"\(text(snapshot.app))\""
                cases += output.isEmpty ? opening + "/>\n" : opening + ">\n" + output + "    </testcase>\n"
                continue
            }
            for (position, finding) in failing.enumerated() {
                tests += 1
                let lines =
                    (finding.cause.map { ["cause: \($0)"] } ?? []) + (finding.site.map { ["added at \(paths.file(for: $0)):\($0.line)"] } ?? [])
                    + ["path: \(finding.path)"]
                let body = lines.map(text).joined(separator: "\n")
                cases += "    <testcase name=\"\(text("\(type) [\(position + 1)]"))\" classname=\"\(text(snapshot.app))\">\n"
                if finding.kind == .retained {
                    failures += 1
                    cases += "      <failure message=\"\(text(finding.message))\" type=\"\(text(finding.rule))\">\(body)</failure>\n"
                } else {
                    errors += 1
                    cases += "      <error message=\"\(text(finding.message))\" type=\"undecided\">\(body)</error>\n"
                }
                if position == 0 { cases += output }
                cases += "    </testcase>\n"
            }
        }
        let warnings = findings.filter { $0.kind == .inputWarning }.map { finding in
            (finding.input.map { $0.line > 0 ? "\($0.source):\($0.line): " : "\($0.source): " } ?? "") + finding.message
        }
        var out = "  <testsuite name=\"\(text("\(snapshot.app) run \(snapshot.run)"))\" tests=\"\(tests)\" "
        out += "failures=\"\(failures)\" errors=\"\(errors)\" skipped=\"0\" time=\"\(JSONText.number(snapshot.evaluatedAt))\">\n"
        out += "    <properties>\n"
        out += "      <property name=\"app\" value=\"\(text(snapshot.app))\"/>\n"
        out += "      <property name=\"run\" value=\"\(text(snapshot.run))\"/>\n"
        out += "      <property name=\"source\" value=\"\(text(check.source))\"/>\n"
        out += "      <property name=\"grace\" value=\"\(JSONText.number(snapshot.grace))\"/>\n"
        out += "    </properties>\n"
        out += cases
        if !warnings.isEmpty {
            out += "    <system-err>\(warnings.map(text).joined(separator: "\n"))</system-err>\n"
        }
        out += "  </testsuite>\n"
        return (out, tests, failures, errors)
    }

    /// Recording text made visible (no control characters reach a CI log through the report), then XML-escaped.
    private static func text(_ raw: String) -> String {
        XMLText.escaped(TextSanitizer.visible(raw))
    }
}
