/// `check --summary`: a `LeakSummary` as text, JSON, gcc-style lines or GitHub annotations.
///
/// gcc and GitHub put one line per group at its example's call site, where an editor or a pull request shows it;
/// SARIF and JUnit are per-coordinator formats (one result or test case per leak in one run), so the summary does not
/// offer them: use `check --format sarif|junit` on the recordings themselves.
package enum LeakSummaryReport {
    /// A recording that could not be used, with the line and problem that say why.
    package struct Unusable: Error, Hashable, Sendable, CustomStringConvertible {
        /// The recording, as the input named it.
        package var source: String
        /// The first bad line; 0 when the problem belongs to no line (an empty or unreadable file).
        package var line: Int
        /// What is wrong with it.
        package var message: String

        /// A recording that could not be used.
        package init(source: String, line: Int, message: String) {
            self.source = source
            self.line = line
            self.message = message
        }

        /// `source:line: message` (`source: message` without a line), the form editors and CI logs link to.
        package var description: String {
            TextSanitizer.visible(line > 0 ? "\(source):\(line): \(message)" : "\(source): \(message)")
        }
    }

    /// A ranked list: per group, its fingerprint, where and how often it appears, and one example's call site.
    package static func text(
        for summary: LeakSummary, unusable: [Unusable] = [], paths: SourcePaths = SourcePaths(), baseline: LeakBaseline? = nil
    ) -> String {
        var lines: [String] = []
        // Causes first: the bugs, each with how many coordinators it keeps; then the fingerprints that leaked.
        let causes = summary.causes
        if !causes.isEmpty {
            lines.append("causes:")
            for cause in causes {
                lines.append(
                    "  \(cause.cause) keeps \(NumberText.grouped(cause.count)) coordinator\(cause.count == 1 ? "" : "s") "
                        + "in \(share(cause.runs, of: summary.recordings)) recordings")
            }
        }
        for (rank, group) in summary.groups.enumerated() {
            lines.append("\(rank + 1). \(group.fingerprint)" + (baseline.map { " (\($0.note(for: group).text))" } ?? ""))
            if !group.causes.isEmpty { lines.append("   cause\(group.causes.count == 1 ? "" : "s"): \(group.causes.joined(separator: "; "))") }
            lines.append(
                "   in \(share(group.runs, of: summary.recordings)) recordings, \(share(group.sessions, of: summary.sessions)) sessions; "
                    + "\(NumberText.grouped(group.count)) retained (\(perRun(group)) per recording it is in)")
            lines.append("   first: \(reference(group.first)); last: \(reference(group.last))")
            lines.append(
                "   e.g. \(group.fingerprint.type)#\(group.example.id) in \(reference(group.example.seenIn))"
                    + (group.example.site.map { ", added at \(paths.file(for: $0)):\($0.line)" } ?? ", no call site"))
        }
        for entry in baseline?.fixed(in: summary) ?? [] {
            lines.append("fixed: \(entry.fingerprint) (\(entry.count) in the baseline) no longer occurs; remove it from the baseline")
        }
        for entry in baseline?.notExercised(in: summary) ?? [] {
            lines.append("not exercised: \(entry.fingerprint): no recording created a \(entry.fingerprint.type) on its path")
        }
        if !lines.isEmpty { lines.append("") }
        lines.append(totals(summary, unusable: unusable))
        return lines.map(TextSanitizer.visible).joined(separator: "\n")
    }

    /// `{"recordings":…,"sessions":…,"retained":…,"undecided":…,"stoppedWithoutEnd":…,"warnings":…,"groups":[…],
    /// "unusable":[…]}`, keys in this order, groups ranked as in the text.
    package static func json(
        for summary: LeakSummary, unusable: [Unusable] = [], paths: SourcePaths = SourcePaths(), baseline: LeakBaseline? = nil
    ) -> String {
        var out = "{\"recordings\":\(summary.recordings),\"sessions\":\(summary.sessions),\"retained\":\(summary.retained),"
        out += "\"undecided\":\(summary.undecided),\"stoppedWithoutEnd\":\(summary.stoppedWithoutEnd),"
        out += "\"warnings\":\(summary.warnings),\"groups\":["
        out += summary.groups.map { group in
            var text = "{\"fingerprint\":\(JSONText.quoted(group.fingerprint.description)),"
            text += "\"types\":[\(group.fingerprint.types.map(JSONText.quoted).joined(separator: ","))],"
            text += "\"omittedSteps\":\(group.fingerprint.omittedSteps),\"reason\":\"\(group.fingerprint.reasonKind.rawValue)\","
            text += "\"runs\":\(group.runs),\"sessions\":\(group.sessions),\"count\":\(group.count),"
            text += "\"mostInOneSession\":\(group.mostInOneSession),\"causes\":[\(group.causes.map(JSONText.quoted).joined(separator: ","))],"
            if let baseline {
                let note = baseline.note(for: group)
                text += "\"baseline\":{\"known\":\(note.accepted),\"note\":\(JSONText.quoted(note.text))},"
            }
            text += "\"first\":\(json(group.first)),\"last\":\(json(group.last)),"
            let example = group.example
            text += "\"example\":{\"source\":\(JSONText.quoted(example.seenIn.source)),\"run\":\(JSONText.quoted(example.seenIn.run)),"
            text += "\"id\":\(example.id.json),\"reason\":\(example.reason.map(JSONText.quoted) ?? "null"),\"added\":"
            if let site = example.site {
                text +=
                    "{\"file\":\(JSONText.quoted(paths.file(for: site))),\"line\":\(site.line),\"function\":\(site.function.map(JSONText.quoted) ?? "null")}"
            } else {
                text += "null"
            }
            return text + "}}"
        }.joined(separator: ",")
        if let baseline {
            out += "],\"fixed\":["
            out += baseline.fixed(in: summary).map { "{\"fingerprint\":\(JSONText.quoted($0.fingerprint.description)),\"count\":\($0.count)}" }
                .joined(separator: ",")
        }
        out += "],\"causes\":["
        out += summary.causes.map { "{\"cause\":\(JSONText.quoted($0.cause)),\"count\":\($0.count),\"runs\":\($0.runs)}" }.joined(separator: ",")
        out += "],\"unusable\":["
        out += unusable.map { "{\"source\":\(JSONText.quoted($0.source)),\"line\":\($0.line),\"message\":\(JSONText.quoted($0.message))}" }
            .joined(separator: ",")
        return out + "]}"
    }

    /// One `file:line:1: error: …` per group at its example's call site, an `error` per unusable recording, and a
    /// `warning` when sessions stopped without `end()`.
    package static func gcc(
        for summary: LeakSummary, unusable: [Unusable] = [], paths: SourcePaths = SourcePaths(), baseline: LeakBaseline? = nil
    ) -> String {
        var lines = summary.groups.map { group in
            let place = group.example.site.map { $0.line > 0 ? "\(paths.file(for: $0)):\($0.line):1:" : "\(paths.file(for: $0)):" } ?? "coordlens:"
            let note = baseline?.note(for: group)
            return "\(place) \(note?.accepted == true ? "warning" : "error"): \(headline(group, of: summary))" + (note.map { " (\($0.text))" } ?? "")
        }
        lines += unusable.map { "\($0.source):\($0.line > 0 ? "\($0.line):1:" : "") error: \($0.message)" }
        if let stopped = stoppedWithoutEnd(summary) { lines.append("coordlens: warning: \(stopped)") }
        return lines.map { TextSanitizer.visible($0) + "\n" }.joined()
    }

    /// One `::error file=…,line=…,title=…::…` per group at its example's call site, one per unusable recording, and
    /// a plain totals line for the log.
    package static func github(
        for summary: LeakSummary, unusable: [Unusable] = [], paths: SourcePaths = SourcePaths(), baseline: LeakBaseline? = nil
    ) -> String {
        var lines = summary.groups.map { group in
            var properties: [(String, String)] = []
            if let site = group.example.site {
                properties.append(("file", paths.file(for: site)))
                if site.line > 0 { properties.append(("line", String(site.line))) }
            }
            properties.append(("title", "\(group.fingerprint.type) retained in \(group.runs) recordings"))
            let note = baseline?.note(for: group)
            return annotation(
                properties, headline(group, of: summary) + (note.map { " (\($0.text))" } ?? ""), level: note?.accepted == true ? "warning" : "error")
        }
        lines += unusable.map { item in
            var properties = [("file", item.source)]
            if item.line > 0 { properties.append(("line", String(item.line))) }
            properties.append(("title", "unusable recording"))
            return annotation(properties, item.message)
        }
        lines.append(totals(summary, unusable: unusable))
        return lines.joined(separator: "\n")
    }

    private static func annotation(_ properties: [(String, String)], _ message: String, level: String = "error") -> String {
        let list = properties.map { "\($0.0)=\(GitHubAnnotationsReport.property(TextSanitizer.visible($0.1)))" }.joined(separator: ",")
        return "::\(level) \(list)::\(GitHubAnnotationsReport.data(TextSanitizer.visible(message)))"
    }

    private static func headline(_ group: LeakSummary.Group, of summary: LeakSummary) -> String {
        "\(group.fingerprint.type) retained in \(share(group.runs, of: summary.recordings)) recordings "
            + "(\(plural(group.count, "coordinator")), \(plural(group.sessions, "session")), "
            + "first \(reference(group.first)), last \(reference(group.last))): \(group.fingerprint)"
    }

    private static func totals(_ summary: LeakSummary, unusable: [Unusable]) -> String {
        let groups = summary.groups.count
        var text =
            "\(NumberText.grouped(groups)) leak\(groups == 1 ? "" : "s") by fingerprint: "
            + "\(NumberText.grouped(summary.retained)) retained, \(NumberText.grouped(summary.undecided)) undecided in "
            + "\(NumberText.grouped(summary.recordings)) recording\(summary.recordings == 1 ? "" : "s") "
            + "(\(NumberText.grouped(summary.sessions)) session\(summary.sessions == 1 ? "" : "s"))"
        if summary.warnings > 0 { text += ", \(NumberText.grouped(summary.warnings)) warnings" }
        if let stopped = stoppedWithoutEnd(summary) { text += "; " + stopped }
        if !unusable.isEmpty { text += "; \(NumberText.grouped(unusable.count)) unusable recording\(unusable.count == 1 ? "" : "s")" }
        return text
    }

    /// `2 sessions stopped without end(): no retainer search ran in them`, or nil when every session ended.
    package static func stoppedWithoutEnd(_ summary: LeakSummary) -> String? {
        guard summary.stoppedWithoutEnd > 0 else { return nil }
        let count = summary.stoppedWithoutEnd
        return "\(plural(count, "session")) stopped without end(): no retainer search ran in \(count == 1 ? "it" : "them")"
    }

    private static func plural(_ count: Int, _ noun: String) -> String {
        "\(NumberText.grouped(count)) \(noun)\(count == 1 ? "" : "s")"
    }

    private static func share(_ part: Int, of whole: Int) -> String {
        "\(NumberText.grouped(part)) of \(NumberText.grouped(whole))"
    }

    private static func perRun(_ group: LeakSummary.Group) -> String {
        let mean = Double(group.count) / Double(Swift.max(group.runs, 1))
        return mean == mean.rounded() ? String(Int(mean)) : String(format1(mean))
    }

    private static func format1(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }

    private static func reference(_ reference: LeakSummary.RunReference) -> String {
        "\(reference.source) (run \(reference.run))"
    }

    private static func json(_ reference: LeakSummary.RunReference) -> String {
        "{\"source\":\(JSONText.quoted(reference.source)),\"run\":\(JSONText.quoted(reference.run))}"
    }
}
