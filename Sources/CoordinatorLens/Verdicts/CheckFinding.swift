/// One thing `check` reports, flattened for the formats CI systems and editors read (gcc, GitHub, SARIF, JUnit): a leak,
/// an undecided or late coordinator, or a problem in the input, with how serious it is and where it points.
///
/// Text from the recording stays raw here; each format escapes it its own way.
struct CheckFinding {
    enum Kind: Equatable {
        /// Retained past the grace period: the leak.
        case retained
        /// The run ended within its grace period.
        case undecided
        /// Freed, but later than the grace period allows.
        case late
        /// A line of the recording that could not be used as it stands.
        case inputWarning
    }

    /// How a format should show it; `error` fails CI the way the exit code does.
    enum Severity: String {
        case error, warning, note
    }

    var kind: Kind
    var severity: Severity
    /// A stable rule id: the retention reason's kind (`still-child`, `detached`, `outlived-parent`), `undecided`,
    /// `late` or `input-warning`.
    var rule: String
    /// `Type#id retained`, `Type#id undecided`, `Type#id late`, or `Recording problem`, for titles.
    var title: String
    /// `retained`, `undecided` or `late`; empty for input warnings.
    var word: String = ""
    /// The one-line message, reason included.
    var message: String
    /// The reason alone, with its call site printed as the report prints sites.
    var reason: String = ""
    /// Where the app added the coordinator; nil for input warnings and coordinators the producer gave no site.
    var site: CallSite?
    /// The recording and 1-based line an input warning points at (line 0: none).
    var input: (source: String, line: Int)?
    /// The coordinator it is about; nil for input warnings.
    var node: SnapshotNode?
    /// `App#1 › Home#2 › Yellow#5`: the coordinator's path from the root, empty for input warnings.
    var path: String
    /// The coordinator a retained one hangs under (its parent, which may only be attached to it), or the parent it was
    /// removed from.
    var holder: SnapshotNode?
    /// The index of its session in `CheckResult.sessions`.
    var session: Int
    /// What keeps a retained coordinator, shared by every leak with the same bug; nil for other findings.
    var cause: LeakCause? = nil
    /// The retained coordinator a leak is held only through (its cause is that one's); nil otherwise.
    var heldThrough: SnapshotNode? = nil
    /// A leak's note from the baseline or history (`known: in the baseline`), also at the end of its reason.
    var note: String? = nil
}

extension CheckResult {
    /// Every finding, session by session: retained, undecided, late, then the input's warnings. Undecided
    /// coordinators are errors unless `allowingUndecided`, as they are for the exit code.
    func findings(allowingUndecided: Bool, paths: SourcePaths = SourcePaths()) -> [CheckFinding] {
        var findings: [CheckFinding] = []
        for (index, check) in sessions.enumerated() {
            let snapshot = check.snapshot
            var ancestry = AncestryIndex(snapshot)
            func finding(
                _ kind: CheckFinding.Kind, _ severity: CheckFinding.Severity, rule: String, node: SnapshotNode,
                word: String, reason: String
            ) -> CheckFinding {
                let name = "\(node.type)#\(node.id)"
                let holderID = node.parent ?? node.removedFrom
                return CheckFinding(
                    kind: kind, severity: severity, rule: rule, title: "\(name) \(word)", word: word,
                    message: "\(name) \(word): \(reason)", reason: reason, site: node.site, input: nil, node: node,
                    path: ancestry.path(to: node.id),
                    holder: holderID.flatMap { snapshot.node($0) }, session: index
                )
            }
            // Cause by cause, so the leaks one cause keeps sit together in every format.
            for group in snapshot.causeGroups() {
                let through = Dictionary(group.heldThrough.map { ($0.id, $0.through) }, uniquingKeysWith: { first, _ in first })
                for id in group.allIDs {
                    guard let node = snapshot.node(id) else { continue }
                    // A leak the baseline accepts is a warning; the note (known, new, seen before) ends its reason.
                    let note = notes.note(session: index, id: node.id)
                    // Who holds it, as the hook found it: the holding field alone, so leaks one reference holds read
                    // alike (an attached-only reason names it already); one held through another leak names that one.
                    let holding = through[id].flatMap { snapshot.node($0) }
                    let holder =
                        holding.map { "; held through \($0.type)#\($0.id), itself retained" }
                        ?? (snapshot.isAttachedOnly(node) ? "" : snapshot.heldBy[node.id]?.suspect.map { "; held by \($0)" } ?? "")
                    let reason = (paths.reason(for: node) ?? "not released") + holder + (note.map { " (\($0.text))" } ?? "")
                    var found = finding(
                        .retained, note?.accepted == true ? .warning : .error, rule: node.leakReasonKind.rawValue,
                        node: node, word: "retained", reason: reason)
                    (found.cause, found.heldThrough, found.note) = (group.cause, holding, note?.text)
                    findings.append(found)
                }
            }
            for undecided in check.undecided {
                findings.append(
                    finding(
                        .undecided, allowingUndecided ? .warning : .error, rule: "undecided",
                        node: undecided.node, word: "undecided", reason: undecided.reason))
            }
            for index in snapshot.nodes.indices where snapshot.nodes[index].verdict == .late {
                let node = snapshot.nodes[index]
                findings.append(finding(.late, .note, rule: "late", node: node, word: "late", reason: paths.reason(for: node) ?? "deinited late"))
            }
            // A recording without its end is a problem of the input: said once, at the recording, failing nothing.
            let stopped = check.stoppedWithoutEnd.map { Diagnostic(line: 0, message: $0) }
            for warning in (stopped.map { [$0] } ?? []) + snapshot.warnings {
                findings.append(
                    CheckFinding(
                        kind: .inputWarning, severity: .warning, rule: "input-warning", title: "Recording problem",
                        message: warning.message, site: nil, input: (check.source, warning.line), node: nil, path: "",
                        holder: nil, session: index
                    ))
            }
        }
        return findings
    }
}

extension CheckFinding {
    /// The recording an input warning points at, unless it was standard input, which no tool can open.
    var inputFile: (path: String, line: Int)? {
        guard let input, !input.source.isEmpty, input.source != "<stdin>" else { return nil }
        return (input.source, input.line)
    }
}
