/// How big a picture drawn for people may get, whatever the tree's shape: what `CollapsedForest` groups, elides and
/// caps. `--all` (and the page's Show all) draws without bounds.
struct DrawingBounds: Sendable {
    /// A row of siblings wider than this many points (5,333 pixels at 96 dpi) groups its same-kind leaves into one
    /// node each (`ProductCoordinator ×30`): 30 leaked siblings drawn one by one make a row of about 4,900 points,
    /// while the samples' widest rows (nine tabs, about 1,500 points) stay as they are.
    var targetRowWidth = 4_000.0
    /// Whether wide rows are grouped; diffs, whose nodes carry markers, keep theirs.
    var groupsWideRows = true
    /// A path longer than this many levels is drawn as its top, one "… N more …" node and its end.
    var longestPath = 24
    /// The levels drawn above an elided middle, the root's included.
    var keptAbove = 4
    /// The levels drawn below it, down to the deepest node.
    var keptBelow = 8
    /// The most items (nodes and summaries) drawn, taken level by level from the roots; under each drawn item the
    /// rest becomes one "N more not drawn" node, so a picture holds at most about twice this many.
    var maximumItems = 500
    /// The most items taken first because they lead to something that matters (a leak, a pending coordinator, a
    /// change), before anything else: a 100,000-coordinator app's 300 leaks with their paths take about 700. Past it
    /// what is left is counted, and a count that holds a leak is drawn red and says how many. 800 keeps a picture of
    /// leaks only (100,000 retained) under 2 MB of SVG, as a picture for people must be.
    var maximumLeadItems = 800

    /// The bounds every default picture gets.
    static let standard = DrawingBounds()
}
