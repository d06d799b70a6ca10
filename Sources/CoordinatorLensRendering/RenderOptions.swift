import CoordinatorLens

/// Choices about what a rendered snapshot shows.
public struct RenderOptions: Hashable, Sendable {
    /// Whether released and late coordinators are drawn; when false they appear only as ancestors of live ones.
    public var showReleased: Bool
    /// Above this many drawn nodes the tree is laid out by CoordinatorLens itself and Graphviz only draws it: `dot`
    /// needs seconds for a few thousand nodes and minutes for tens of thousands.
    public var largeTreeThreshold: Int
    /// How tooltips print call sites' files (`--source-root`).
    public var sourcePaths: SourcePaths
    /// Draw only retained coordinators, what hangs below them and the path from the root to each.
    public var leaksOnly = false
    /// Above this many drawn coordinators every subtree with nothing retained or pending in it is drawn as one summary
    /// node; `Int.max` draws every one (`--all`). 300 keeps a picture readable on one screen.
    public var collapseThreshold = RenderOptions.defaultCollapseThreshold
    /// Whether adjacent summarised siblings of one type and verdict share one node (`FeedItemCoordinator ×120`).
    public var groupsSiblings = true
    /// Draw only the coordinators with this id (as spelled in the recording) or type, their subtrees and the paths to
    /// them (`--focus`).
    public var focus: String?
    /// Draw coordinators down to this depth (roots are 0) and each deeper subtree as one summary (`--depth`).
    public var depth: Int?
    /// Whether each coordinator's box carries its tooltip (verdict, call sites, times); the inspector page writes its
    /// own from the model when a box is first pointed at, and takes pictures without.
    package var nodeTooltips = true
    /// Coordinators drawn as themselves, with their paths, in a picture that would summarise them: the page's search
    /// and outline show a coordinator that sits in a summary this way. Released ones among them are drawn too.
    package var revealed: Set<CoordinatorID> = []
    /// Whether the picture carries its title and legend; the page shows both itself, so its tree gets the space.
    package var drawsTitleAndLegend = true
    /// The width over the height of the screen the picture is fitted to: a small tree laid out by CoordinatorLens (the
    /// page's: `largeTreeThreshold` 0) much wider than that wraps its rows of leaves so that its titles read at fit;
    /// `dot`'s layouts keep their shape. The page says its frame's; nil: no screen, no wrapping to one.
    package var aspect: Double?
    /// Summaries the page opened, each named by its first member: the members, that member's siblings of its type and
    /// verdict, are drawn as themselves (up to the drawing's cap).
    package var opened: Set<CoordinatorID> = []
    /// The drawn size above which trees collapse by default.
    public static let defaultCollapseThreshold = 300

    /// By default released and late coordinators show only as ancestors of live ones.
    public init(showReleased: Bool = false, largeTreeThreshold: Int = 2_000, sourcePaths: SourcePaths = SourcePaths()) {
        self.showReleased = showReleased
        self.largeTreeThreshold = largeTreeThreshold
        self.sourcePaths = sourcePaths
    }
}
