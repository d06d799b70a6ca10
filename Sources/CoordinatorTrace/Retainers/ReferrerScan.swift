#if RetainerSearch
// The whole file is the search's: a build without the RetainerSearch trait leaves it out (Package.swift).
#if canImport(Glibc)
import Glibc

/// Which words of the app's memory hold given addresses: the malloc heaps (every arena, and blocks mapped apart) and
/// the loaded images' writable data, read in bulk through the faultless reader and searched word by word. The backward half of the retainer search: where no path from a root reaches a leak, what holds its
/// address is found here, and then what holds that.
///
/// Not read: thread stacks and other anonymous mappings that are no malloc heap (a stack changes under the search
/// and keeps stale words; the search's own thread's certainly holds the address).
final class ReferrerScan {
    /// Where a word holding an address was found.
    enum Place: Equatable {
        /// In a malloc block.
        case block(MallocChunks.Block)
        /// In an image's writable data, outside any block: a global or static of that image.
        case imageData(String)
    }

    struct Referrer: Equatable {
        /// The address the word holds.
        var target: UInt
        /// Where the word is.
        var at: UInt
        /// Nil for a word of a heap in no block the walk names (a chunk header, the top chunk, past a broken walk).
        var place: Place?
    }

    private static let pieceSize = 256 << 10

    private let reader: MemoryReader
    /// The heaps, by address, and the images' writable data.
    private var heaps: [MallocChunks] = []
    private var images: [MappedRegion] = []
    private var buffer: [UInt8]
    /// Bytes read so far, for the searched summary.
    private(set) var bytesRead = 0

    /// The scan of this moment's mappings.
    init(reader: MemoryReader) {
        self.reader = reader
        buffer = [UInt8](repeating: 0, count: Self.pieceSize)
        for region in MappedRegion.current() {
            switch region.kind {
            case .imageData:
                images.append(region)
            case .mainHeap, .anonymous:
                // Reservations of many gigabytes (a sanitizer's shadow, a runtime's arena) are no malloc heap.
                guard region.size <= 1 << 36 else { continue }
                // A region may join several mappings (a thread's stack beside an arena's heap): what is no heap is
                // passed over to the next arena boundary.
                var at = region.start
                while at < region.end {
                    if let heap = MallocChunks(at: at, before: region.end, isMainHeap: region.kind == .mainHeap && at == region.start, reader: reader) {
                        heaps.append(heap)
                        at = (heap.limit + 4_095) & ~4_095
                    } else {
                        at = (at / MallocChunks.arenaHeapAlignment + 1) * MallocChunks.arenaHeapAlignment
                    }
                }
            case .mainStack:
                break
            }
        }
    }

    /// The heaps and image data regions it reads.
    var regionCount: Int { heaps.count + images.count }

    /// Whether `block` is malloc's own: the per-thread cache that starts each heap (its entries point at freed blocks).
    func isMallocsOwn(_ block: MallocChunks.Block) -> Bool {
        block.size == 0x280 && heaps.contains { $0.firstBlock == block.start }
    }

    /// Every aligned word that holds one of `targets`, at most `cap` of each (an object many blocks point at, a shared
    /// cache's, is no leak's holder, and naming each of its referrers costs reads), until `budget` is spent (nil then).
    func referrers(of targets: [UInt], cap: Int, budget: SearchBudget) -> [Referrer]? {
        guard !targets.isEmpty else { return [] }
        var found: [Referrer] = []
        var counts: [UInt: Int] = [:]
        let own = buffer.withUnsafeBytes { UInt(bitPattern: $0.baseAddress!) }
        let skipped = own..<(own + UInt(buffer.count))
        func keep(_ target: UInt, _ address: UInt) -> Bool {
            guard !skipped.contains(address) else { return false }
            counts[target, default: 0] += 1
            return counts[target]! <= cap
        }
        for heap in heaps {
            guard
                scan(
                    heap.start..<heap.limit, for: targets, budget: budget,
                    { address, target in
                        guard keep(target, address) else { return }
                        found.append(Referrer(target: target, at: address, place: heap.block(containing: address).map(Place.block)))
                    })
            else { return nil }
        }
        for image in images {
            guard case .imageData(let path) = image.kind else { continue }
            guard
                scan(
                    image.start..<image.end, for: targets, budget: budget,
                    { address, target in
                        guard keep(target, address) else { return }
                        found.append(Referrer(target: target, at: address, place: .imageData(path)))
                    })
            else { return nil }
        }
        return found
    }

    /// Calls `hit` for each aligned word of `range` that holds a target; false once `budget` is spent.
    private func scan(_ range: Range<UInt>, for targets: [UInt], budget: SearchBudget, _ hit: (UInt, UInt) -> Void) -> Bool {
        let sorted = targets.sorted()
        var at = range.lowerBound
        while at < range.upperBound {
            guard !budget.isSpent else { return false }
            let count = Int(min(UInt(Self.pieceSize), range.upperBound - at))
            let pieceStart = at
            let got = buffer.withUnsafeMutableBytes { reader.read(pieceStart, count: count, into: $0.baseAddress!) }
            bytesRead += got
            at += UInt(count)
            guard got >= 8 else { continue }
            buffer.withUnsafeBytes { raw in
                sorted.withUnsafeBufferPointer { targets in
                    Self.matches(in: UnsafeRawBufferPointer(rebasing: raw[0..<(got & ~7)]), targets: targets) { offset, target in
                        hit(pieceStart + UInt(offset), target)
                    }
                }
            }
        }
        return true
    }

    /// The words of `words` equal to one of `targets` (sorted), with their byte offsets. Optimised even in a debug
    /// build of the app: it looks at every word of the heap, and unoptimised it was most of the search's time.
    @_optimize(speed)
    private static func matches(in words: UnsafeRawBufferPointer, targets: UnsafeBufferPointer<UInt>, _ hit: (Int, UInt) -> Void) {
        guard let low = targets.first, let high = targets.last, let base = words.baseAddress else { return }
        // A 1,024-bit filter of the targets' bits 4-13 (objects are 16-byte aligned, so these differ between them): a
        // word within the targets' span passes to the exact compare only when its bit is set.
        var filter = (
            UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0),
            UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0)
        )
        withUnsafeMutableBytes(of: &filter) { bits in
            let slots = bits.bindMemory(to: UInt64.self)
            for target in targets { slots[Int((target >> 10) & 15)] |= 1 << ((target >> 4) & 63) }
        }
        let count = words.count / 8
        let typed = base.assumingMemoryBound(to: UInt.self)
        withUnsafeBytes(of: &filter) { bits in
            let slots = bits.bindMemory(to: UInt64.self)
            var index = 0
            while index < count {
                let word = typed[index]
                if word &- low <= high &- low, slots[Int((word >> 10) & 15)] & (1 << ((word >> 4) & 63)) != 0 {
                    for target in targets where target == word { hit(index * 8, target) }
                }
                index += 1
            }
        }
    }
}
#endif
#endif
