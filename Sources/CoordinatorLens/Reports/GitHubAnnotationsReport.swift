/// `check --format github`: GitHub Actions workflow commands (`::error file=…,line=…,title=…::…`), so a leak shows on
/// the pull request's diff at the line that added the coordinator. GitHub shows at most 10 error annotations per
/// step, so identical findings at one line are one annotation with a count, errors first, the biggest first.
///
/// A retained coordinator is an `error` annotation (message: reason, path from the root); an undecided one an `error`
/// (a `warning` with `--allow-undecided`); a late one a `notice`; a problem in the input a `warning` at its line in
/// the recording. Text from the recording is made visible (`TextSanitizer`), then escaped as the runner decodes it:
/// `%`, CR and LF everywhere, `:` and `,` in properties too, so it can neither end a command nor start one.
package enum GitHubAnnotationsReport {
    /// One workflow command per finding, then a plain summary line for the log.
    package static func text(for result: CheckResult, allowingUndecided: Bool = false, paths: SourcePaths = SourcePaths()) -> String {
        var lines: [String] = []
        for group in FindingGroup.grouping(result.findings(allowingUndecided: allowingUndecided, paths: paths)) {
            let finding = group.first
            var properties: [(String, String)] = []
            if let site = finding.site {
                properties.append(("file", paths.file(for: site)))
                if site.line > 0 { properties.append(("line", String(site.line))) }
            } else if let input = finding.inputFile {
                properties.append(("file", input.path))
                if input.line > 0 { properties.append(("line", String(input.line))) }
            }
            properties.append(("title", group.title))
            var message = TextSanitizer.visible(group.message)
            if finding.node != nil { message += "\n" + "path: " + TextSanitizer.visible(finding.path) }
            let list = properties.map { "\($0.0)=\(property(TextSanitizer.visible($0.1)))" }.joined(separator: ",")
            lines.append("::\(command(finding.severity)) \(list)::\(data(message))")
        }
        let sessions = result.sessions.count == 1 ? "1 session" : "\(result.sessions.count) sessions"
        lines.append("coordlens: \(result.retained) retained, \(result.undecided) undecided in \(sessions)")
        return lines.joined(separator: "\n")
    }

    private static func command(_ severity: CheckFinding.Severity) -> String {
        switch severity {
        case .error: "error"
        case .warning: "warning"
        case .note: "notice"
        }
    }

    /// A command's message, escaped as the runner's `escapeData` does.
    static func data(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "%": out += "%25"
            case "\r": out += "%0D"
            case "\n": out += "%0A"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// A property's value, escaped as the runner's `escapeProperty` does.
    static func property(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in data(text).unicodeScalars {
            switch scalar {
            case ":": out += "%3A"
            case ",": out += "%2C"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
