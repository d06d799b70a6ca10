import Foundation

#if canImport(FoundationXML)
import FoundationXML
#endif

/// An SVG parsed into a plain element tree, so tests read what libgvc wrote, entities decoded.
public final class SVGElement {
    /// The element's tag name, such as `g`, `text` or `polygon`.
    public let name: String
    /// The element's attributes, values decoded.
    public let attributes: [String: String]
    /// The elements directly under this one, in document order.
    public fileprivate(set) var children: [SVGElement] = []
    /// The character data directly inside this element.
    public fileprivate(set) var text = ""

    /// An element with no children and no text yet.
    public init(name: String, attributes: [String: String]) {
        self.name = name
        self.attributes = attributes
    }

    /// This element and everything under it, in document order.
    public var descendants: [SVGElement] { [self] + children.flatMap(\.descendants) }

    /// The first element with this `id`, searching this one and everything under it.
    public func element(id: String) -> SVGElement? { descendants.first { $0.attributes["id"] == id } }

    /// The `class` attribute's words.
    public var classes: [String] { (attributes["class"] ?? "").split(separator: " ").map(String.init) }

    /// This element and the elements under it whose class list holds `name`, in document order.
    public func elements(withClass name: String) -> [SVGElement] { descendants.filter { $0.classes.contains(name) } }

    /// The text of every `<text>` element under this one.
    public var texts: [String] { descendants.filter { $0.name == "text" }.map(\.text) }

    /// The text of every `<text>` element under this one, joined with spaces.
    public var allText: String { texts.joined(separator: " ") }

    /// The first shape (polygon, path or ellipse) under this element: a node's box or outline.
    public var shape: SVGElement? { descendants.first { ["polygon", "path", "ellipse"].contains($0.name) } }

    /// The fill of the first shape (polygon, path or ellipse) under this element.
    public var shapeFill: String? { shape?.attributes["fill"] }

    /// Parses SVG bytes; throws when they are not well-formed XML.
    public static func parse(_ bytes: [UInt8]) throws -> SVGElement { try parse(Data(bytes)) }

    /// Parses SVG data; throws when it is not well-formed XML.
    public static func parse(_ data: Data) throws -> SVGElement {
        let builder = Builder()
        let parser = XMLParser(data: data)
        parser.delegate = builder
        guard parser.parse(), let root = builder.root else {
            throw ParseFailure(description: parser.parserError.map(String.init(describing:)) ?? "no root element")
        }
        return root
    }

    /// Why bytes did not parse as an SVG.
    public struct ParseFailure: Error, CustomStringConvertible {
        /// The XML parser's error, or what was missing.
        public var description: String
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

        func parser(
            _ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?
        ) {
            open.removeLast()
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            open.last?.text += string
        }
    }
}
