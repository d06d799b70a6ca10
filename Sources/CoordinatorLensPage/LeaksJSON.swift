import CoordinatorLens
import CoordinatorWire

/// The model's leak groups as the JSON their `Codable` conformance writes, written by hand as `NodesJSON` writes the
/// nodes: a big session's groups list tens of thousands of ids, and `JSONEncoder` spent a quarter of a model's build
/// on them (perf, a 160,000-event session under 200 readers).
enum LeaksJSON {
    /// `leaks` as a JSON array.
    static func encode(_ leaks: [TreeModel.Leaks]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(leaks.reduce(2) { $0 + 96 + $1.ids.count * 7 })
        out.append(UInt8(ascii: "["))
        for (index, group) in leaks.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            var object = NodesJSON.Object(&out)
            object.string("fingerprint", group.fingerprint, &out)
            object.string("type", group.type, &out)
            object.string("reasonKind", group.reasonKind, &out)
            object.key("ids", &out)
            NodesJSON.appendIDs(group.ids, to: &out)
            object.string("standing", group.standing, &out)
            object.string("note", group.note, &out)
            object.string("cause", group.cause, &out)
            object.key("through", &out)
            NodesJSON.appendIDs(group.through, to: &out)
            out.append(UInt8(ascii: "}"))
        }
        out.append(UInt8(ascii: "]"))
        return out
    }
}
