import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// An SVG parsed into a plain element tree, so tests read what libgvc wrote.
final class SVGElement {
    let name: String
    let attributes: [String: String]
    fileprivate(set) var children: [SVGElement] = []
    fileprivate(set) var text = ""

    init(name: String, attributes: [String: String]) {
        self.name = name
        self.attributes = attributes
    }

    /// This element and everything under it, in document order.
    var descendants: [SVGElement] { [self] + children.flatMap(\.descendants) }

    /// The `class` attribute's words.
    var classes: [String] { (attributes["class"] ?? "").split(separator: " ").map(String.init) }

    /// The elements under this one whose class list holds `name`.
    func elements(withClass name: String) -> [SVGElement] { descendants.filter { $0.classes.contains(name) } }

    /// The joined text of every `<text>` element under this one.
    var allText: String { descendants.filter { $0.name == "text" }.map(\.text).joined(separator: " ") }

    /// The first shape (polygon or path) under this element: a node's box.
    var shape: SVGElement? { descendants.first { ["polygon", "path"].contains($0.name) } }

    static func parse(_ bytes: [UInt8]) throws -> SVGElement {
        let builder = Builder()
        let parser = XMLParser(data: Data(bytes))
        parser.delegate = builder
        guard parser.parse(), let root = builder.root else {
            throw ParseFailure(description: parser.parserError.map(String.init(describing:)) ?? "no root element")
        }
        return root
    }

    struct ParseFailure: Error, CustomStringConvertible {
        var description: String
    }

    private final class Builder: NSObject, XMLParserDelegate {
        var root: SVGElement?
        private var open: [SVGElement] = []

        func parser(
            _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
            qualifiedName: String?, attributes: [String: String]
        ) {
            let element = SVGElement(name: elementName, attributes: attributes)
            if let parent = open.last { parent.children.append(element) } else { root = element }
            open.append(element)
        }

        func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
            open.removeLast()
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            open.last?.text += string
        }
    }
}
