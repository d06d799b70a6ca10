/// What is already known about a check's leaks, per retained coordinator: from a baseline (a known leak is accepted:
/// listed, not failing) or from a history (new or seen before: a mark only). Every output of `check` reads it.
package struct LeakNotes: Sendable {
    /// One retained coordinator's note.
    package struct Note: Sendable, Hashable {
        /// Whether the leak is accepted (known in the baseline), so it does not fail the run.
        package var accepted: Bool
        /// `known: in the baseline (3)`, `new: not in the baseline`, `seen before: in 2 of the last 3 runs since …`.
        package var text: String

        /// A note saying `text`; `accepted` when the leak must not fail the run.
        package init(accepted: Bool, text: String) {
            self.accepted = accepted
            self.text = text
        }
    }

    private struct Key: Hashable {
        var session: Int
        var id: CoordinatorID
    }

    private var notes: [Key: Note] = [:]

    /// No notes: every leak fails, as without a baseline.
    package init() {}

    /// Whether nothing is noted.
    package var isEmpty: Bool { notes.isEmpty }

    /// The note of coordinator `id` of session `session` (its index in `CheckResult.sessions`).
    package func note(session: Int, id: CoordinatorID) -> Note? {
        notes[Key(session: session, id: id)]
    }

    /// Notes `note` for coordinator `id` of session `session`; a second note is added to the first (`; `), and the
    /// leak stays accepted only if both accept it.
    package mutating func add(_ note: Note, session: Int, id: CoordinatorID) {
        let key = Key(session: session, id: id)
        guard let earlier = notes[key] else {
            notes[key] = note
            return
        }
        notes[key] = Note(accepted: earlier.accepted && note.accepted, text: earlier.text + "; " + note.text)
    }

    /// Every note of `other` added to these.
    package mutating func merge(_ other: LeakNotes) {
        for (key, note) in other.notes { add(note, session: key.session, id: key.id) }
    }
}
