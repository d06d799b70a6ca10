/// LeakCanary's heap-growth idea for coordinators: in a run that repeats a flow and marks the end of each iteration,
/// the live (not deinited) coordinators of each type at every mark, and the types whose count grows at every one.
///
/// A type that grows from each mark to the next piles up as the flow repeats, even when no single coordinator is
/// judged retained yet (its screen may never report a dismissal).
package struct GrowthReport: Sendable, Encodable {
    /// One type's live count at each mark.
    package struct TypeCounts: Hashable, Sendable, Encodable {
        /// The coordinators' Swift type name.
        package var type: String
        /// Live coordinators of this type at each mark, in mark order.
        package var counts: [Int]

        /// Counts for `type`, one per mark in mark order.
        package init(type: String, counts: [Int]) {
            self.type = type
            self.counts = counts
        }

        /// Whether the count rises from every mark to the next.
        package var growsAtEveryMark: Bool {
            counts.count >= 2 && zip(counts, counts.dropFirst()).allSatisfy { $0 < $1 }
        }
    }

    /// The app's name from the session line.
    package let app: String
    /// The run id of the session replayed.
    package let run: String
    /// The mark label that ends each iteration.
    package let label: String
    /// Every mark with that label, in order.
    package let marks: [Mark]
    /// Every type live at some mark, by name.
    package let types: [TypeCounts]

    /// The types that grow at every mark, most numerous at the last mark first.
    package var growing: [TypeCounts] {
        types.filter(\.growsAtEveryMark).sorted {
            $0.counts.last! != $1.counts.last! ? $0.counts.last! > $1.counts.last! : $0.type < $1.type
        }
    }

    /// Replays `log` once, counting live coordinators per type at each mark labelled `label`; needs at least two.
    package init(_ log: SessionLog, label: String) throws(GrowthError) {
        var marks: [Mark] = []
        var countsAtMarks: [[String: Int]] = []
        // Live coordinators per type, kept up to date event by event: counting the whole tree at each mark made a run
        // that repeats its flow quadratic in its marks.
        var live: [String: Int] = [:]
        var before: Coordinator?
        let tree: SessionTree
        do {
            tree = try log.replay { tree, record, applied in
                let id: CoordinatorID?
                switch record.event {
                case .add(let added, _, _), .watch(let added, _, _): id = added
                case .deinitialized(let freed): id = freed
                default: id = nil
                }
                guard applied else {
                    before = id.flatMap { tree.storedIgnoringChildren($0) }
                    return
                }
                if let id {
                    let after = tree.storedIgnoringChildren(id)
                    if let before, before.deinitAt == nil { live[before.type, default: 0] -= 1 }
                    if let after, after.deinitAt == nil { live[after.type, default: 0] += 1 }
                }
                guard case .mark(let seen) = record.event, seen == label else { return }
                marks.append(Mark(label: label, seq: record.seq, time: record.time))
                countsAtMarks.append(live.filter { $0.value > 0 })
            }.tree
        } catch {
            throw GrowthError(message: error.message)
        }
        guard marks.count >= 2 else {
            let labels = Array(Set(tree.marks.map(\.label))).sorted()
            let known = labels.isEmpty ? "it has no marks" : "its marks: \(labels.joined(separator: ", "))"
            let found = marks.isEmpty ? "no mark \"\(label)\"" : "only one mark \"\(label)\""
            throw GrowthError(message: "\(found) in run \(log.header.run) (\(known)); growth needs one after each of at least two iterations")
        }
        let names = Set(countsAtMarks.flatMap(\.keys)).sorted()
        self.app = log.header.app
        self.run = log.header.run
        self.label = label
        self.marks = marks
        self.types = names.map { name in TypeCounts(type: name, counts: countsAtMarks.map { $0[name, default: 0] }) }
    }

    /// The report for people: each growing type with its counts per iteration, then a verdict line; user text is
    /// shown through `TextSanitizer.visible`.
    package var text: String {
        let times = marks.map { Seconds($0.time).description }.joined(separator: ", ")
        let (app, run, label) = (TextSanitizer.visible(app), TextSanitizer.visible(run), TextSanitizer.visible(label))
        var lines = ["\(app) run \(run): live coordinators at \(marks.count) marks \"\(label)\" (at \(times))"]
        let growing = self.growing
        let names = growing.map { TextSanitizer.visible($0.type) }
        let width = names.reduce(0) { Swift.max($0, $1.unicodeScalars.count) } + 2
        for (type, name) in zip(growing, names) {
            let padding = String(repeating: " ", count: width - name.unicodeScalars.count)
            let first = type.counts.first!
            let last = type.counts.last!
            let perIteration = Double(last - first) / Double(type.counts.count - 1)
            let rate = perIteration == perIteration.rounded() ? "\(Int(perIteration))" : "\((perIteration * 10).rounded() / 10)"
            lines.append("  \(name)\(padding)\(type.counts.map(String.init).joined(separator: " → "))  (+\(rate) per iteration)")
        }
        switch growing.count {
        case 0: lines.append("no type grows at every mark")
        case 1: lines.append("1 type grows at every mark")
        default: lines.append("\(growing.count) types grow at every mark")
        }
        return lines.joined(separator: "\n")
    }

    private enum Keys: String, CodingKey {
        case app, run, label, marks, growing, types
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(app, forKey: .app)
        try container.encode(run, forKey: .run)
        try container.encode(label, forKey: .label)
        try container.encode(marks, forKey: .marks)
        try container.encode(growing, forKey: .growing)
        try container.encode(types, forKey: .types)
    }
}

/// A run that cannot show growth: it has fewer than two marks with the label.
package struct GrowthError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Names the missing or single mark and lists the marks the run does have.
    package var message: String
    package var description: String { message }
}
