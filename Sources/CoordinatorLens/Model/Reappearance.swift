/// A done coordinator shown again: it was dismissed at `dismissedAt` and bound to `screen` at `shownAt`, which makes it
/// alive again. Kept so the details pane, the slider and JSON can tell its whole story.
public struct Reappearance: Hashable, Sendable, Codable {
    /// Seconds since the session started, when it was dismissed before being shown again.
    public var dismissedAt: Double
    /// How that dismissal came about.
    public var dismissedVia: DismissalCause?
    /// Seconds since the session started, when it was bound to a screen again.
    public var shownAt: Double
    /// The screen it was shown on again.
    public var screen: String

    /// A dismissal at `dismissedAt` undone by showing `screen` at `shownAt`.
    package init(dismissedAt: Double, dismissedVia: DismissalCause?, shownAt: Double, screen: String) {
        self.dismissedAt = dismissedAt
        self.dismissedVia = dismissedVia
        self.shownAt = shownAt
        self.screen = screen
    }
}
