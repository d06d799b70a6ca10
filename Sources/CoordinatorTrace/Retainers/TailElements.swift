#if RetainerSearch
// The whole file is the search's: a build without the RetainerSearch trait leaves it out (Package.swift).
/// Which words past the standard library's collection storage's fields are elements in use: an array's first `count`
/// elements, a set's or dictionary's occupied buckets (its bitmap says which). The rest (spare capacity, emptied
/// buckets) hold whatever the memory held before, and a word there that equals a leak's address is no reference.
struct TailElements {
    let decoder: LayoutDecoder

    /// Whether the word at `address`, in the tail of the storage at `storage`, lies in an element in use; nil when the
    /// storage is not one it knows or does not read (then the caller decides as before).
    func isInUse(_ address: UInt, storage: UInt, metadata: UInt, layout: ClassLayout, name: String) -> Bool? {
        if name.hasPrefix("_ContiguousArrayStorage<") { return arrayElementInUse(address, storage: storage, metadata: metadata, layout: layout) }
        if name.hasPrefix("_DictionaryStorage<") {
            return bucketInUse(address, storage: storage, metadata: metadata, layout: layout, regions: ["_rawKeys", "_rawValues"])
        }
        if name.hasPrefix("_SetStorage<") { return bucketInUse(address, storage: storage, metadata: metadata, layout: layout, regions: ["_rawElements"]) }
        return nil
    }

    private func stride(of type: UInt) -> Int? {
        decoder.layout(ofType: type).map { max(1, ($0.size + $0.alignMask) & ~$0.alignMask) }
    }

    /// Elements start past the header, at their alignment; the header's first word after the object's is the count.
    private func arrayElementInUse(_ address: UInt, storage: UInt, metadata: UInt, layout: ClassLayout) -> Bool? {
        guard let element = decoder.genericArguments(ofClass: metadata, count: 1)?.first, let elementLayout = decoder.layout(ofType: element),
            let stride = stride(of: element), let count = decoder.reader.word(storage + 16), count < 1 << 40
        else { return nil }
        let start = storage + UInt((layout.instanceSize + elementLayout.alignMask) & ~elementLayout.alignMask)
        guard address >= start else { return false }
        return (address - start) / UInt(stride) < count
    }

    /// Each region (`_rawKeys`, `_rawValues`, `_rawElements`) holds one slot per bucket, of the class's generic
    /// arguments in turn; a word in an empty bucket's slot, or in none, is not in use.
    private func bucketInUse(_ address: UInt, storage: UInt, metadata: UInt, layout: ClassLayout, regions: [String]) -> Bool? {
        guard let types = decoder.genericArguments(ofClass: metadata, count: regions.count), let scaleOffset = layout.offset(of: "_scale"),
            let scale = decoder.reader.bytes(storage + UInt(scaleOffset), count: 1)?.first, scale < 32
        else { return nil }
        let buckets = UInt(1) << UInt(scale)
        for (region, type) in zip(regions, types) {
            guard let offset = layout.offset(of: region), let base = decoder.reader.word(storage + UInt(offset)), let stride = stride(of: type)
            else { return nil }
            guard address >= base, address < base + buckets * UInt(stride) else { continue }
            let bucket = (address - base) / UInt(stride)
            let bitmap = storage + UInt((layout.instanceSize + 7) & ~7)
            guard let word = decoder.reader.word(bitmap + bucket / 64 * 8) else { return nil }
            return word & (1 << (bucket % 64)) != 0
        }
        return false
    }
}
#endif
