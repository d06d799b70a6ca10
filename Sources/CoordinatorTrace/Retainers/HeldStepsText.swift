/// A `held` line's steps in one string: four fields (five with a closure's name) apart by U+001F, steps apart by U+001E, characters no type name holds
/// (and that are taken out of the field text), so the line stays flat like every other.
enum HeldStepsText {
    static func encode(_ steps: [RetainerPath.Step]) -> String {
        steps.map { step in
            // A fifth field names the closure, only when there is one: a four-field step reads as before.
            ([step.holder, step.holderID.map(String.init) ?? "", step.field, step.kind.rawValue] + (step.closure.map { [$0] } ?? []))
                .map { $0.replacingOccurrences(of: "\u{1E}", with: " ").replacingOccurrences(of: "\u{1F}", with: " ") }
                .joined(separator: "\u{1F}")
        }.joined(separator: "\u{1E}")
    }
}
