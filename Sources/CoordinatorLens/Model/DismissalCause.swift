/// How a coordinator came to be dismissed, as the `dismiss` event's `via` says.
public enum DismissalCause: String, Hashable, Sendable, Codable, CaseIterable {
    /// The app called `dismissed`: its flow finished or its screen went away (no `via`).
    case reported
    /// The screen it is bound to left the screen (dismissed, popped, swiped down, replaced), whoever still holds it.
    case screenLeft = "screen-left"
    /// The screen it is bound to was deallocated.
    case screenFreed = "screen-freed"
    /// A watched object's coordinator was done (dismissed, removed or orphaned): the object should die with it.
    case withOwner = "with-owner"

    /// A phrase for people: "its screen left at 0.5 s".
    package func phrase(at time: Double) -> String {
        switch self {
        case .reported: "dismissed at \(Seconds(time))"
        case .screenLeft: "its screen left at \(Seconds(time))"
        case .screenFreed: "its screen was freed at \(Seconds(time))"
        case .withOwner: "its coordinator was done at \(Seconds(time))"
        }
    }
}
