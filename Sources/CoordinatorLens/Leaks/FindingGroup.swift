/// Findings that say the same thing: one annotation with a count, so 18 products retained by one array make one GitHub
/// annotation (GitHub shows at most 10 per step) or one compiler-style error, not 18. Leaks group by their cause (the
/// signature of their suspect references), whatever line added them; other findings by what they say and where.
struct FindingGroup {
    /// The findings, in the order `check` found them; the first one speaks for the group.
    var findings: [CheckFinding]

    var first: CheckFinding { findings[0] }
    var count: Int { findings.count }

    /// `HomeCoordinator.children[] (element) keeps 7 coordinators: 3 × YellowCoordinator (#2, #4, #6), …`: the cause
    /// first, then what it keeps; for other findings `18 × ProductCoordinator undecided: … (ProductCoordinator#4, #5,
    /// … 15 more)`; the finding's own message when it stands alone.
    var message: String {
        guard count > 1, let node = first.node else { return first.message }
        if let cause = first.cause {
            let through = findings.filter { $0.heldThrough != nil }.count
            let split = through == 0 ? "" : " (\(through) held through another of them)"
            // The baseline's or history's words, once for the group (a known leak and a new one are never one group).
            var notes: [String] = []
            for note in findings.compactMap(\.note) where !notes.contains(note) { notes.append(note) }
            let noted = notes.isEmpty ? "" : " (\(notes.joined(separator: "; ")))"
            return "\(cause) keeps \(count) coordinators\(split): " + kept + noted
        }
        let reasons = Set(findings.map(\.reason))
        let reason = (reasons.count == 1 ? "" : "e.g. ") + first.reason
        let shown = findings.prefix(Self.namedIDs).compactMap { $0.node.map { "#\($0.id)" } }
        let more = count > Self.namedIDs ? ", … \(count - Self.namedIDs) more" : ""
        return "\(count) × \(node.type) \(first.word): \(reason) (\(node.type)\(shown.joined(separator: ", "))\(more))"
    }

    /// `18 × ProductCoordinator retained` (or `7 coordinators retained` of several types), or the finding's own title.
    var title: String {
        guard count > 1, let node = first.node else { return first.title }
        let oneType = findings.allSatisfy { $0.node?.type == node.type }
        return oneType ? "\(count) × \(node.type) \(first.word)" : "\(count) coordinators \(first.word)"
    }

    /// The kept coordinators type by type, in the order found: `3 × YellowCoordinator (#2, #4, #6), CheckoutCoordinator#10`.
    private var kept: String {
        var types: [String] = []
        var ids: [String: [String]] = [:]
        for finding in findings {
            guard let node = finding.node else { continue }
            if ids[node.type] == nil { types.append(node.type) }
            ids[node.type, default: []].append("#\(node.id)")
        }
        let parts = types.prefix(Self.namedTypes).map { type in
            let mine = ids[type]!
            guard mine.count > 1 else { return type + mine[0] }
            let more = mine.count > Self.namedIDs ? ", … \(mine.count - Self.namedIDs) more" : ""
            return "\(mine.count) × \(type) (\(mine.prefix(Self.namedIDs).joined(separator: ", "))\(more))"
        }
        let rest = types.dropFirst(Self.namedTypes).reduce(0) { $0 + ids[$1]!.count }
        return parts.joined(separator: ", ") + (rest > 0 ? ", … \(rest) more of \(types.count - Self.namedTypes) other types" : "")
    }

    /// The other lines that added coordinators of the group, with how many each added: where a compiler-style report
    /// puts a note, so every line a leak came from stays one click away.
    var otherSites: [(site: CallSite, type: String, count: Int)] {
        var order: [String] = []
        var found: [String: (site: CallSite, type: String, count: Int)] = [:]
        let firstKey = first.site.map { "\($0.path ?? $0.file):\($0.line)" }
        for finding in findings.dropFirst() {
            guard let site = finding.site, let node = finding.node else { continue }
            let key = "\(site.path ?? site.file):\(site.line)"
            guard key != firstKey else { continue }
            if found[key] == nil { order.append(key) }
            found[key, default: (site, node.type, 0)].count += 1
        }
        return order.map { found[$0]! }
    }

    private static let namedIDs = 5
    private static let namedTypes = 4

    /// Groups findings by what they say and where: kind, severity, rule, the site's file and line, the type and the
    /// type of the coordinator holding it. Errors come first, then warnings, then notes; within each, the biggest
    /// group first, and otherwise the order found.
    static func grouping(_ findings: [CheckFinding]) -> [FindingGroup] {
        var order: [Key] = []
        var groups: [Key: [CheckFinding]] = [:]
        for (position, finding) in findings.enumerated() {
            let key = Key(finding, position: position)
            if groups[key] == nil { order.append(key) }
            groups[key, default: []].append(finding)
        }
        let ranked = order.enumerated().sorted { a, b in
            let (left, right) = (groups[a.element]!, groups[b.element]!)
            let (leftRank, rightRank) = (rank(left[0].severity), rank(right[0].severity))
            if leftRank != rightRank { return leftRank < rightRank }
            if left.count != right.count { return left.count > right.count }
            return a.offset < b.offset
        }
        return ranked.map { FindingGroup(findings: groups[$0.element]!) }
    }

    private static func rank(_ severity: CheckFinding.Severity) -> Int {
        switch severity {
        case .error: 0
        case .warning: 1
        case .note: 2
        }
    }

    private struct Key: Hashable {
        var kind: String
        var severity: String
        var rule: String
        var file: String? = nil
        var line: Int
        var type: String? = nil
        var holderType: String? = nil
        var session: Int
        var cause: LeakCause?
        /// Findings with no coordinator (input warnings) are never merged: each points at its own line.
        var position: Int? = nil

        init(_ finding: CheckFinding, position: Int) {
            kind = "\(finding.kind)"
            severity = finding.severity.rawValue
            session = finding.session
            if let cause = finding.cause {
                // One cause, one finding, whichever lines added the coordinators it keeps.
                (rule, line, self.cause) = ("", 0, cause)
                return
            }
            rule = finding.rule
            file = finding.site?.path ?? finding.site?.file
            line = finding.site?.line ?? 0
            type = finding.node?.type
            holderType = finding.holder?.type
            self.position = finding.node == nil ? position : nil
        }
    }
}
