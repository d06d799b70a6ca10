/// The opening of every picture's DOT text, so tree and diff pictures share one look: top-down, children in order,
/// Helvetica, a title at the top left; and the small pieces both writers put in it.
enum DOTPreamble {
    /// HTML-like label text in the small type that every second line of a label uses.
    static func small(_ html: String) -> String {
        "<FONT POINT-SIZE=\"10\">\(html)</FONT>"
    }

    /// `, pos="x,y!"` for a given position (points, one decimal), nothing when Graphviz places the node.
    static func pos(_ position: (x: Double, y: Double)?, size: (width: Double, height: Double)? = nil) -> String {
        guard let position else { return "" }
        func format(_ value: Double) -> String { String((value * 10).rounded() / 10) }
        var text = ", pos=\"\(format(position.x)),\(format(position.y))!\""
        // The layout's own estimate, as a minimum: Graphviz's built-in font metrics (no Pango) measure narrower
        // than the sans-serif fonts a browser substitutes for Helvetica, and a box sized by them alone would clip.
        func inches(_ points: Double) -> String { String((points / 72 * 100).rounded(.up) / 100) }
        if let size { text += ", width=\(inches(size.width)), height=\(inches(size.height))" }
        return text
    }

    /// `digraph NAME {` and the graph, node and edge defaults; `title` is an HTML-like label (`<…>`), `extra` more
    /// graph attributes (each with its leading comma).
    static func open(_ name: String, title: String, extra: String = "") -> String {
        """
        digraph \(name) {
          graph [rankdir=TB, newrank=true, ordering=out, nodesep=0.3, ranksep=0.45, fontname="Helvetica", \
        fontsize=14, labelloc=t, labeljust=l\(extra), label=\(title)];
          node [shape=box, fontname="Helvetica", fontsize=12, margin="\(NodeDetail.sideMargin),0.06"];
          edge [color="\(NodeLook.edgeGrey)", arrowsize=0.7];

        """
    }
}
