/// A `held` line's steps in one string: fields apart by U+001F, steps apart by U+001E, characters no type name holds
/// (and that are taken out of the field text), so the line stays flat like every other.
enum HeldStepsText {
    static func encode(_ steps: [RetainerPath.Step]) -> String {
        steps.map { step in
            [step.holder, step.holderID.map(String.init) ?? "", step.field, step.kind.rawValue]
                .map { $0.replacingOccurrences(of: "\u{1E}", with: " ").replacingOccurrences(of: "\u{1F}", with: " ") }
                .joined(separator: "\u{1F}")
        }.joined(separator: "\u{1E}")
    }

    /// The `closures` of a `held` line: each step's closure name (empty for a step in none) apart by U+001E, in a key
    /// of its own so a reader of the four-field steps reads them as before; nil when no step names one.
    static func closures(_ steps: [RetainerPath.Step]) -> String? {
        guard steps.contains(where: { $0.closure != nil }) else { return nil }
        return steps.map { ($0.closure ?? "").replacingOccurrences(of: "\u{1E}", with: " ") }.joined(separator: "\u{1E}")
    }
}
