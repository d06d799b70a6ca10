/// Findings that say the same thing at the same place: one annotation with a count, so 18 products retained at one
/// line make one GitHub annotation (GitHub shows at most 10 per step) or one compiler-style error, not 18.
struct FindingGroup {
    /// The findings, in the order `check` found them; the first one speaks for the group.
    var findings: [CheckFinding]

    var first: CheckFinding { findings[0] }
    var count: Int { findings.count }

    /// `18 × ProductCoordinator retained: still a child of HomeCoordinator#2 (ProductCoordinator#4, #5, #6, … 15 more)`,
    /// or the finding's own message when it stands alone.
    var message: String {
        guard count > 1, let node = first.node else { return first.message }
        let reasons = Set(findings.map(\.reason))
        let reason = (reasons.count == 1 ? "" : "e.g. ") + first.reason
        let shown = findings.prefix(Self.namedIDs).compactMap { $0.node.map { "#\($0.id)" } }
        let more = count > Self.namedIDs ? ", … \(count - Self.namedIDs) more" : ""
        return "\(count) × \(node.type) \(first.word): \(reason) (\(node.type)\(shown.joined(separator: ", "))\(more))"
    }

    /// `18 × ProductCoordinator retained`, or the finding's own title.
    var title: String {
        guard count > 1, let node = first.node else { return first.title }
        return "\(count) × \(node.type) \(first.word)"
    }

    private static let namedIDs = 5

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
        var file: String?
        var line: Int
        var type: String?
        var holderType: String?
        var session: Int
        /// Findings with no coordinator (input warnings) are never merged: each points at its own line.
        var position: Int?

        init(_ finding: CheckFinding, position: Int) {
            kind = "\(finding.kind)"
            severity = finding.severity.rawValue
            rule = finding.rule
            file = finding.site?.path ?? finding.site?.file
            line = finding.site?.line ?? 0
            type = finding.node?.type
            holderType = finding.holder?.type
            session = finding.session
            self.position = finding.node == nil ? position : nil
        }
    }
}
