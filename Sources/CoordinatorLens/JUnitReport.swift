/// `check --format junit`: JUnit XML, which CI systems (Jenkins, GitLab, Azure, GitHub test reporters) show as tests.
///
/// One `testsuite` per session and one `testcase` per coordinator type in it (class name: the app): types, unlike
/// ids and run ids, are the same in every run, so a CI system's test history follows the same leak from build to
/// build. A retained coordinator is a `failure` of its type's case (type: its reason kind; text: where it was added
/// and its path); an undecided one an `error` (the run could not be judged), or a line of the case's `system-out` with
/// `--allow-undecided`, as late ones are. Problems in the input go to the suite's `system-err`, one per line.
public enum JUnitReport {
    /// The JUnit XML document.
    public static func xml(for result: CheckResult, allowingUndecided: Bool = false, paths: SourcePaths = SourcePaths()) -> String {
        let findings = result.findings(allowingUndecided: allowingUndecided)
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
        var failures = 0
        var errors = 0
        for type in types {
            let mine = byType[type] ?? []
            let opening = "    <testcase name=\"\(text(type))\" classname=\"\(text(snapshot.app))\""
            guard !mine.isEmpty else {
                cases += opening + "/>\n"
                continue
            }
            cases += opening + ">\n"
            var output: [String] = []
            for finding in mine {
                let lines = (finding.site.map { ["added at \(paths.file(for: $0)):\($0.line)"] } ?? []) + ["path: \(finding.path)"]
                let body = lines.map(text).joined(separator: "\n")
                switch (finding.kind, finding.severity) {
                case (.retained, _):
                    failures += 1
                    cases += "      <failure message=\"\(text(finding.message))\" type=\"\(text(finding.rule))\">\(body)</failure>\n"
                case (.undecided, .error):
                    errors += 1
                    cases += "      <error message=\"\(text(finding.message))\" type=\"undecided\">\(body)</error>\n"
                default:
                    output.append(finding.message)
                }
            }
            if !output.isEmpty {
                cases += "      <system-out>\(output.map(text).joined(separator: "\n"))</system-out>\n"
            }
            cases += "    </testcase>\n"
        }
        let warnings = findings.filter { $0.kind == .inputWarning }.map { finding in
            (finding.input.map { $0.line > 0 ? "\($0.source):\($0.line): " : "\($0.source): " } ?? "") + finding.message
        }
        var out = "  <testsuite name=\"\(text("\(snapshot.app) run \(snapshot.run)"))\" tests=\"\(types.count)\" "
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
        return (out, types.count, failures, errors)
    }

    /// Recording text made visible (no control characters reach a CI log through the report), then XML-escaped.
    private static func text(_ raw: String) -> String {
        XMLText.escaped(TextSanitizer.visible(raw))
    }
}
