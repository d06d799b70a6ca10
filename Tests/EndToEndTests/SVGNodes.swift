import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Reads a Graphviz SVG back: each node group's id, classes and the fill of its shape.
final class SVGNodes: NSObject, XMLParserDelegate {
    struct Node {
        var classes: String
        var fill: String?
    }

    private(set) var nodes: [String: Node] = [:]
    private var current: String?

    static func parse(_ data: Data) throws -> [String: Node] {
        let reader = SVGNodes()
        let parser = XMLParser(data: data)
        parser.delegate = reader
        guard parser.parse() else { throw parser.parserError ?? CocoaError(.fileReadCorruptFile) }
        return reader.nodes
    }

    func parser(
        _ parser: XMLParser, didStartElement element: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        if element == "g", let id = attributes["id"], let classes = attributes["class"], classes.hasPrefix("node") {
            nodes[id] = Node(classes: classes)
            current = id
        } else if let current, ["path", "polygon", "ellipse"].contains(element), nodes[current]?.fill == nil {
            nodes[current]?.fill = attributes["fill"]
        }
    }

    func parser(_ parser: XMLParser, didEndElement element: String, namespaceURI: String?, qualifiedName: String?) {
        if element == "g" { current = nil }
    }
}
