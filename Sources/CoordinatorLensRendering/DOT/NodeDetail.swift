import CoordinatorLens

/// How much each coordinator's box says. A picture people take in at a glance gets the full box: rounded, the type in
/// bold over the id, screen, age and verdict in small type (the reason is the tooltip's). A picture of more coordinators than a default one
/// ever draws (only `--all` and the page's Show all draw that many) gets the compact box: square, one plain font, the
/// type and id on one line, and the verdict below for any but an alive one; the screen, age and call sites
/// stay in the tooltip, and edges lose their arrowheads (a child is always below its parent).
///
/// Measured with libgvc's core plugins on a 20,000-node tree: HTML-like labels cost 0.13 s of its layout, rounded
/// corners 0.27 s and arrowheads 0.06 s of its SVG writing, of 1.3 s in all; and Chromium parses and lays out a
/// quarter less SVG for the same 1,000 coordinators.
enum NodeDetail: Sendable {
    case full
    case compact

    /// The detail for a picture of `coordinators` coordinators' boxes (summaries and omissions not counted), where
    /// more than `compactAbove` get the compact box.
    init(coordinators: Int, compactAbove: Int) {
        self = coordinators > compactAbove ? .compact : .full
    }

    /// Node and edge defaults for the drawing's coordinators: the look of an alive one, so that most nodes state
    /// nothing but their id, place, label and tooltip (a third less DOT for libgvc to parse at 20,000 nodes).
    var defaults: String {
        let alive = NodeLook(.alive, detail: self)
        let font = self == .compact ? ", fontsize=11" : ""
        let edge = self == .compact ? ", arrowhead=none" : ""
        return "  node [class=\"verdict-alive\", \(alive.attributes)\(font)];\n  edge [class=\"holds\"\(edge)];\n"
    }

    /// How wide a character of a compact label is taken to be, in ems: Helvetica averages about 0.6, and a generous
    /// guess only widens the gaps, where a short one would clip labels in the fonts browsers substitute.
    static let emPerCharacter = 0.62

    /// The space either side of a box's text, in inches: 0.15 made a row of boxes a tenth wider than its text, and a
    /// fitted picture's titles that much smaller.
    static let sideMargin = 0.1
}
