/// The human report of `check`'s result, shared by `coordlens check` and test assertions. Every line goes through
/// `TextSanitizer`, so text from a recording can never start a line of its own.
package enum LeakReport {
    /// One line per retained coordinator: type, id, reason, and where it was added.
    package static func line(for node: SnapshotNode) -> String {
        let site = node.site.map { " (added at \($0.description))" } ?? ""
        return TextSanitizer.visible("\(node.type)#\(node.id) retained: \(node.reason ?? "not released")\(site)")
    }

    /// The path from the root to the node, as `App#1 › Home#2 › Yellow#5`; a detached node is shown under the parent
    /// it left, and a long path keeps its ends with `… N more` between them.
    package static func path(to node: SnapshotNode, in snapshot: Snapshot) -> String {
        var ancestry = AncestryIndex(snapshot)
        return TextSanitizer.visible(ancestry.path(to: node.id))
    }

    /// Counts in verdict order, for example `3 alive, 2 retained, 4 released`.
    package static func counts(_ snapshot: Snapshot) -> String {
        let counts = snapshot.counts
        var kept = 0
        for index in snapshot.nodes.indices where snapshot.nodes[index].kept != nil { kept += 1 }
        let parts = Verdict.allCases.compactMap { verdict in
            counts[verdict].map { "\($0) \(verdict.rawValue)" + (verdict == .alive && kept > 0 ? " (\(kept) kept for reuse)" : "") }
        }
        return parts.isEmpty ? "no coordinators" : parts.joined(separator: ", ")
    }

    /// The full text block for one session: leaks with their paths, undecided ones, late ones, warnings, counts. A leak
    /// `notes` accepts (known in a baseline) is `KNOWN` rather than `RETAINED`; any note follows its path.
    /// Crowd notes a session prints before it sums the rest up in one line (`--notes all` prints every one): at
    /// 100,000 coordinators 7,516 of them buried the leaks they followed.
    package static let notesShown = 5

    package static func text(
        for check: SessionCheck, paths: SourcePaths = SourcePaths(), notes: LeakNotes = LeakNotes(), session: Int = 0, allNotes: Bool = false
    ) -> String {
        let snapshot = check.snapshot
        var ancestry = AncestryIndex(snapshot)
        // One string appended line by line: a report lists every leak, 20,000 of them in a million-event run.
        var text = ""
        func line(_ content: String) {
            if !text.isEmpty { text += "\n" }
            text += TextSanitizer.visible(content)
        }
        line("\(snapshot.app) run \(snapshot.run) (evaluated at \(Seconds(snapshot.evaluatedAt)), grace \(Seconds(snapshot.grace)))")
        if let stopped = check.stoppedWithoutEnd { line("  \(stopped)") }
        // By position, reading the fields each line needs: a copy of each leak's node was a fifth of the report.
        func leak(_ id: CoordinatorID, through: (id: CoordinatorID, cause: LeakCause)?) {
            guard let index = snapshot.position(of: id) else { return }
            let note = notes.note(session: session, id: id)
            let name = "\(snapshot.nodes[index].type)#\(id)"
            line("  \(note?.accepted == true ? "KNOWN" : "RETAINED") \(name): \(snapshot.nodes[index].reason ?? "not released")")
            if let site = snapshot.nodes[index].site {
                line("    \(snapshot.nodes[index].watched == true ? "watched" : "added") at \(paths.file(for: site)):\(site.line)")
            }
            line("    path: \(ancestry.path(to: id))")
            if let held = snapshot.heldBy[id] { line("    held by: \(held.text(target: name))") }
            // A leak kept only by another leak: the cause is that one's, and fixing it frees this one too.
            if let through, let holder = snapshot.node(through.id) {
                line("    held through \(holder.type)#\(through.id), itself retained (\(through.cause))")
            }
            if let note { line("    \(note.text)") }
        }
        // Cause first, then the coordinators it keeps: seven kept by one cycle read as one bug, not seven.
        for group in snapshot.causeGroups() {
            line("  cause: \(group.cause) \(group.keepsText(in: snapshot))")
            for id in group.ids { leak(id, through: nil) }
            for held in group.heldThrough { leak(held.id, through: (held.through, group.cause)) }
        }
        for undecided in check.undecided {
            line("  UNDECIDED \(name(undecided.node)): \(undecided.reason)")
            if let site = undecided.node.site { line("    added at \(paths.file(for: site)):\(site.line)") }
        }
        for index in snapshot.nodes.indices where snapshot.nodes[index].verdict == .late {
            let node = snapshot.nodes[index]
            line("  late \(name(node)): \(node.reason ?? "")")
        }
        for index in snapshot.nodes.indices where snapshot.nodes[index].kept != nil {
            line("  kept \(name(snapshot.nodes[index])): \(snapshot.nodes[index].kept!.text)")
        }
        let crowds = CrowdedSiblings.find(in: snapshot)
        let shown = allNotes ? crowds.count : min(crowds.count, notesShown)
        for crowd in crowds.prefix(shown) { line("  \(crowd.note(in: snapshot))") }
        if shown < crowds.count {
            let rest = crowds[shown...]
            let coordinators = rest.reduce(0) { $0 + $1.ids.count }
            let types = Set(rest.map(\.type)).count
            let parents = Set(rest.map(\.parent)).count
            line(
                "  note: \(NumberText.grouped(rest.count)) more crowds of living siblings like these (\(NumberText.grouped(coordinators)) coordinators "
                    + "of \(NumberText.grouped(types)) type\(types == 1 ? "" : "s") under \(NumberText.grouped(parents)) parent\(parents == 1 ? "" : "s")); "
                    + "--notes all lists them")
        }
        if !snapshot.warnings.isEmpty {
            line("  warnings:")
            let prefix = check.source.isEmpty ? "" : "\(check.source):"
            for warning in snapshot.warnings {
                line(warning.line > 0 ? "    \(prefix)\(warning.line): \(warning.message)" : "    \(warning.message)")
            }
        }
        line("  \(counts(snapshot))")
        return text
    }

    /// Every session's block, then the closing count, and when undecided coordinators do not fail the run, a note.
    package static func text(
        for result: CheckResult, allowingUndecided: Bool = false, paths: SourcePaths = SourcePaths(), allNotes: Bool = false
    ) -> String {
        var blocks = result.sessions.enumerated().map {
            text(for: $0.element, paths: paths, notes: result.notes, session: $0.offset, allNotes: allNotes)
        }
        let sessions = result.sessions.count == 1 ? "1 session" : "\(result.sessions.count) sessions"
        let accepted = result.retained - result.failingRetained
        let retained = "\(result.retained) retained" + (accepted > 0 ? " (\(accepted) known from the baseline)" : "")
        if result.undecided > 0 {
            let note = allowingUndecided ? " (allowed by --allow-undecided)" : ""
            blocks.append("\(retained), \(result.undecided) undecided\(note) in \(sessions)")
        } else {
            blocks.append("\(retained) in \(sessions)")
        }
        return blocks.joined(separator: "\n\n")
    }

    private static func name(_ node: SnapshotNode) -> String { "\(node.type)#\(node.id)" }
}
