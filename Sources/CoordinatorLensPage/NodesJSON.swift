import CoordinatorLens
import CoordinatorWire

/// A snapshot's nodes as the JSON their `Codable` conformance writes (the same keys, nil fields left out), written by
/// hand: the page's model of 100,000 coordinators is 16 MB of JSON, and `JSONEncoder` took 0.7 s of the page's first
/// paint to write it (86% of answering `/api/model`).
package enum NodesJSON {
    /// `nodes` as a JSON array.
    package static func encode(_ nodes: [SnapshotNode]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(nodes.count * 160)
        out.append(UInt8(ascii: "["))
        for (index, node) in nodes.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            append(node, to: &out)
        }
        out.append(UInt8(ascii: "]"))
        return out
    }

    private static func append(_ node: SnapshotNode, to out: inout [UInt8]) {
        var object = Object(&out)
        object.id("id", node.id, &out)
        object.string("type", node.type, &out)
        object.id("parent", node.parent, &out)
        object.key("children", &out)
        appendIDs(node.children, to: &out)
        object.string("screen", node.screen, &out)
        object.number("addedAt", node.addedAt, &out)
        object.site("site", node.site, &out)
        object.number("doneAt", node.doneAt, &out)
        object.number("deinitAt", node.deinitAt, &out)
        object.string("verdict", node.verdict.rawValue, &out)
        object.string("reason", node.reason, &out)
        object.string("reasonKind", node.reasonKind?.rawValue, &out)
        if node.watched == true {
            object.key("watched", &out)
            out.append(contentsOf: "true".utf8)
        }
        object.id("removedFrom", node.removedFrom, &out)
        object.site("boundSite", node.boundSite, &out)
        object.site("dismissedSite", node.dismissedSite, &out)
        object.string("dismissedVia", node.dismissedVia?.rawValue, &out)
        object.number("dismissedAt", node.dismissedAt, &out)
        object.site("removedSite", node.removedSite, &out)
        if let shownAgain = node.shownAgain {
            object.key("shownAgain", &out)
            out.append(UInt8(ascii: "["))
            for (index, again) in shownAgain.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                var inner = Object(&out)
                inner.number("dismissedAt", again.dismissedAt, &out)
                inner.string("dismissedVia", again.dismissedVia?.rawValue, &out)
                inner.number("shownAt", again.shownAt, &out)
                inner.string("screen", again.screen, &out)
                out.append(UInt8(ascii: "}"))
            }
            out.append(UInt8(ascii: "]"))
        }
        if let kept = node.kept {
            object.key("kept", &out)
            var inner = Object(&out)
            inner.integer("limit", kept.limit, &out)
            inner.string("parentType", kept.parentType, &out)
            inner.id("parentID", kept.parentID, &out)
            inner.number("doneAt", kept.doneAt, &out)
            out.append(UInt8(ascii: "}"))
        }
        out.append(UInt8(ascii: "}"))
    }

    /// `ids` as a JSON array.
    static func appendIDs(_ ids: [CoordinatorID], to out: inout [UInt8]) {
        out.append(UInt8(ascii: "["))
        for (index, id) in ids.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            appendID(id, to: &out)
        }
        out.append(UInt8(ascii: "]"))
    }

    private static func appendID(_ id: CoordinatorID, to out: inout [UInt8]) {
        if let number = id.integer {
            out.append(contentsOf: String(number).utf8)
        } else {
            var text = id.description
            text.withUTF8 { JSONString.append($0, quotedTo: &out) }
        }
    }

    /// The fields of one JSON object being written into a buffer it does not own: each with its key, a comma between
    /// them, nil ones left out. The caller closes it with `}`.
    struct Object {
        private var empty = true

        init(_ out: inout [UInt8]) {
            out.append(UInt8(ascii: "{"))
        }

        mutating func key(_ name: StaticString, _ out: inout [UInt8]) {
            if !empty { out.append(UInt8(ascii: ",")) }
            empty = false
            out.append(UInt8(ascii: "\""))
            name.withUTF8Buffer { out.append(contentsOf: $0) }
            out.append(UInt8(ascii: "\""))
            out.append(UInt8(ascii: ":"))
        }

        mutating func string(_ name: StaticString, _ value: String?, _ out: inout [UInt8]) {
            guard var value else { return }
            key(name, &out)
            value.withUTF8 { JSONString.append($0, quotedTo: &out) }
        }

        mutating func id(_ name: StaticString, _ value: CoordinatorID?, _ out: inout [UInt8]) {
            guard let value else { return }
            key(name, &out)
            NodesJSON.appendID(value, to: &out)
        }

        mutating func number(_ name: StaticString, _ value: Double?, _ out: inout [UInt8]) {
            guard let value, value.isFinite else { return }
            key(name, &out)
            out.append(contentsOf: value.description.utf8)
        }

        mutating func integer(_ name: StaticString, _ value: Int, _ out: inout [UInt8]) {
            key(name, &out)
            out.append(contentsOf: String(value).utf8)
        }

        mutating func site(_ name: StaticString, _ site: CallSite?, _ out: inout [UInt8]) {
            guard let site else { return }
            key(name, &out)
            var inner = Object(&out)
            inner.string("file", site.file, &out)
            inner.integer("line", site.line, &out)
            inner.string("function", site.function, &out)
            inner.string("path", site.path, &out)
            out.append(UInt8(ascii: "}"))
        }
    }
}
