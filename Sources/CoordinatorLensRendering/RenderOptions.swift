/// Choices about what a rendered snapshot shows.
public struct RenderOptions: Hashable, Sendable {
    /// Whether released and late coordinators are drawn; when false they appear only as ancestors of live ones.
    public var showReleased: Bool

    /// By default released and late coordinators show only as ancestors of live ones.
    public init(showReleased: Bool = false) {
        self.showReleased = showReleased
    }
}
