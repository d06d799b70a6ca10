/// An append-only list kept in fixed-size chunks, so growing it never moves what it holds, and changing one element of
/// a copy copies one chunk, not the list.
///
/// A session's coordinators are 200 bytes each: in one Array, each doubling copied every one of them into freshly
/// faulted memory, and at a million events that copy was close to half of applying them. Here a full chunk stays
/// where it is and a new one starts; reading and writing in place cost a shift and a mask more than an Array. The live
/// server judges a copy of a growing tree while lines keep changing it: with its flat lists in chunks, the first
/// change after a copy costs one 4,096-element chunk per list instead of the whole list (24 MB at a million
/// coordinators, copied under the lock every hook line waits for).
package struct ChunkedArray<Element>: RandomAccessCollection {
    private static var chunkShift: Int { 12 }
    private static var chunkSize: Int { 1 << chunkShift }
    private var chunks: [[Element]] = []
    package private(set) var count = 0

    /// An empty list.
    package init() {}

    /// `elements`, in order.
    package init(_ elements: some Sequence<Element>) {
        for element in elements { append(element) }
    }

    /// `elements`, in order, copied a chunk at a time: a tree compacting a parent's children rebuilds its list from
    /// one, and an append per child was most of a `remove`'s cost.
    package init(_ elements: [Element]) {
        var start = 0
        while start < elements.count {
            let end = Swift.min(start + Self.chunkSize, elements.count)
            chunks.append(Array(elements[start..<end]))
            start = end
        }
        count = elements.count
    }

    package var startIndex: Int { 0 }
    package var endIndex: Int { count }

    package subscript(index: Int) -> Element {
        _read {
            precondition(index >= 0 && index < count, "index out of range")
            yield chunks[index >> Self.chunkShift][index & (Self.chunkSize - 1)]
        }
        _modify {
            precondition(index >= 0 && index < count, "index out of range")
            yield &chunks[index >> Self.chunkShift][index & (Self.chunkSize - 1)]
        }
    }

    /// Adds `element` at the end; nothing already held moves.
    package mutating func append(_ element: consuming Element) {
        if count & (Self.chunkSize - 1) == 0 {
            var chunk: [Element] = []
            // The first chunk grows as an Array does, so a small tree holds no more than it needs.
            if !chunks.isEmpty { chunk.reserveCapacity(Self.chunkSize) }
            chunks.append(chunk)
        }
        chunks[chunks.count - 1].append(element)
        count += 1
    }

    /// Adds `count` copies of `element` at the end.
    package mutating func append(repeating element: Element, count: Int) {
        for _ in 0..<count { append(element) }
    }
}

extension ChunkedArray: Sendable where Element: Sendable {}

extension ChunkedArray: Equatable where Element: Equatable {
    package static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.count == rhs.count && lhs.elementsEqual(rhs)
    }
}

extension ChunkedArray: Hashable where Element: Hashable {
    package func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        for element in self { hasher.combine(element) }
    }
}
