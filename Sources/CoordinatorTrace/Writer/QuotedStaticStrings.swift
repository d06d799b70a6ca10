import CoordinatorWire

/// Call-site strings quoted once, kept by address: a line's file, path and function are the same few static strings
/// event after event and half of its bytes, so each is escaped on first sight and copied whole after that.
/// Direct-mapped on the string's address (no hashing); a collision only costs escaping again.
struct QuotedStaticStrings {
    private static let slotCount = 1_024
    private var addresses = [UInt](repeating: 0, count: slotCount)
    private var quoted = [[UInt8]](repeating: [], count: slotCount)
    /// A folder taken off the front of each string that starts with it and a slash (`TraceOptions.sourceRoot`).
    private var root: [UInt8] = []

    init(trimming root: String? = nil) {
        if let root, !root.isEmpty { self.root = Array(root.utf8) + (root.hasSuffix("/") ? [] : [UInt8(ascii: "/")]) }
    }

    /// `text` as a JSON string literal, quotes included.
    mutating func callAsFunction(_ text: StaticString) -> [UInt8] {
        guard text.hasPointerRepresentation else { return LineEncoder.quoted(String(text.unicodeScalar).utf8) }
        let address = UInt(bitPattern: text.utf8Start)
        let slot = Int((address >> 3) % UInt(Self.slotCount))
        if addresses[slot] == address, !quoted[slot].isEmpty { return quoted[slot] }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8CodeUnitCount + 2)
        var text = UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount)
        if !root.isEmpty, text.count > root.count, text.starts(with: root) { text = UnsafeBufferPointer(rebasing: text[root.count...]) }
        JSONString.append(text, quotedTo: &bytes)
        addresses[slot] = address
        quoted[slot] = bytes
        return bytes
    }
}
