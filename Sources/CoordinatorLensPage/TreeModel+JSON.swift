import CoordinatorLens
import Foundation

extension TreeModel {
    /// The model as JSON: `JSONEncoder` for all but the nodes and the leak groups, which `NodesJSON` and `LeaksJSON`
    /// write (at 100,000 coordinators the encoder took 0.7 s on the nodes, and a quarter of a model's build went on the
    /// groups' ids). The model without them has exactly one `"nodes":[]` and one `"leaks":[]`: keys are not escaped,
    /// and no other part of it has a key of either name.
    package func json() throws -> [UInt8] {
        var shell = self
        shell.nodes = []
        shell.leaks = []
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        let text = Array(try encoder.encode(shell))
        let parts = [(Array(#""nodes":"#.utf8), NodesJSON.encode(nodes)), (Array(#""leaks":"#.utf8), LeaksJSON.encode(leaks))]
        // Where each empty array stands, in the order the encoder wrote them (it need not keep the declared order).
        var slots: [(at: Int, key: [UInt8], value: [UInt8])] = []
        for (key, value) in parts {
            let slot = key + Array("[]".utf8)
            guard let at = text.indices.dropLast(slot.count - 1).first(where: { text[$0..<$0 + slot.count].elementsEqual(slot) }) else {
                throw EncodingError.invalidValue(self, .init(codingPath: [], debugDescription: "no \(String(decoding: key, as: UTF8.self)) key"))
            }
            slots.append((at, key, value))
        }
        var out: [UInt8] = []
        out.reserveCapacity(text.count + slots.reduce(0) { $0 + $1.value.count })
        var from = 0
        for slot in slots.sorted(by: { $0.at < $1.at }) {
            out += text[from..<slot.at]
            out += slot.key
            out += slot.value
            from = slot.at + slot.key.count + 2
        }
        out += text[from...]
        return out
    }
}
