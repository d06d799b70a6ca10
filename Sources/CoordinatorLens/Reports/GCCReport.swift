/// `check --format gcc`: one `file:line:column: severity: message` line per finding, the form compilers print and
/// Xcode, editors and `make` users click through. Leaks with one cause are one line with a count (`Router.products[]
/// (element) keeps 18 coordinators: …`), other identical findings at one line too, errors first, the biggest first.
///
/// A retained coordinator (or a cause's first) is an `error` at the line that added it, followed by a `note` with its
/// path from the root and a `note` at each other line that added coordinators the same cause keeps;
/// an undecided one an `error` (a `warning` with `--allow-undecided`); a late one a `note`; a problem in the input a
/// `warning` at its line in the recording. Every line goes through `TextSanitizer`, so text from a recording can
/// never start a line of its own.
package enum GCCReport {
    /// The report for `result`, each line ending in a newline; empty when there is nothing to say.
    package static func text(for result: CheckResult, allowingUndecided: Bool = false, paths: SourcePaths = SourcePaths()) -> String {
        var lines: [String] = []
        for group in FindingGroup.grouping(result.findings(allowingUndecided: allowingUndecided, paths: paths)) {
            let finding = group.first
            let location = location(of: finding, paths: paths)
            lines.append("\(location) \(finding.severity.rawValue): \(group.message)")
            if finding.kind == .retained {
                lines.append("\(location) note: path: \(finding.path)\(group.count > 1 ? " (the first of \(group.count))" : "")")
                for other in group.otherSites {
                    let added = other.count == 1 ? "a \(other.type)" : "\(other.count) × \(other.type)"
                    lines.append("\(Self.location(of: other.site, paths: paths)) note: \(added) added here, kept by the same cause")
                }
            }
        }
        return lines.map { TextSanitizer.visible($0) + "\n" }.joined()
    }

    /// `file:line:1:`, `file:` when the line is unknown, or `coordlens:` when there is no file to point at.
    private static func location(of finding: CheckFinding, paths: SourcePaths) -> String {
        if let site = finding.site { return location(of: site, paths: paths) }
        if let input = finding.inputFile {
            return input.line > 0 ? "\(input.path):\(input.line):1:" : "\(input.path):"
        }
        return "coordlens:"
    }

    private static func location(of site: CallSite, paths: SourcePaths) -> String {
        site.line > 0 ? "\(paths.file(for: site)):\(site.line):1:" : "\(paths.file(for: site)):"
    }
}
