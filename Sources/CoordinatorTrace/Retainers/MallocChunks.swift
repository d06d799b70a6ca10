#if RetainerSearch
// The whole file is the search's: a build without the RetainerSearch trait leaves it out (Package.swift).
#if canImport(Glibc)
/// One region's glibc malloc chunks, walked through the faultless reader: which block holds an address. Swift objects
/// come from `malloc` here (`swift_slowAlloc`), so a word found in the heap belongs to the block whose chunk covers it.
///
/// What it relies on (glibc 2.26 and later, 64-bit): a chunk is `prev_size`, then `size` with the flags in its low
/// three bits (1: the chunk before is in use, 2: mapped apart), then the block; chunks follow one another without gaps
/// up to the heap's top chunk. The main arena's heap starts with a chunk; another arena's heap starts with its
/// `heap_info` (and, in its first heap, the arena's own state) at a 64 MiB boundary; a large block is a mapping of its
/// own with one chunk flagged as mapped. Every size is checked before it is used; a walk that meets a size that does
/// not fit reads again from the chunk before it (other threads' mallocs write headers as they are copied), and after a
/// few tries stops: the region's later blocks are then not named, never misnamed.
final class MallocChunks {
    /// A block: where its bytes start (the address a pointer to it holds), how many there are, and whether malloc
    /// has it handed out (a freed block in a per-thread cache reads as in use: its first words are malloc's).
    struct Block: Equatable {
        var start: UInt
        var size: Int
        var inUse: Bool
    }

    /// glibc's heaps for arenas other than the main one are this size and aligned to it (HEAP_MAX_SIZE on 64-bit).
    static let arenaHeapAlignment: UInt = 64 << 20
    private static let minimumChunk: UInt = 32
    /// Reads again of a place where a size did not fit, before a walk stops there.
    private static let rereadsAtABreak = 4
    /// A walk keeps one chunk start per this many bytes, so finding a block walks at most this far.
    private static let checkpointSpacing: UInt = 16 << 10

    /// Where the heap's memory starts, and where its chunks end.
    let start: UInt
    let limit: UInt
    private let reader: MemoryReader
    private let first: UInt
    private let mappedApart: Bool
    /// Chunk starts, the first at or after each `checkpointSpacing` step; filled by the first walk.
    private var checkpoints: [UInt] = []
    private var walked = false
    /// Where the walk stopped on a size that did not fit (blocks past it are not named), or `limit`.
    private var walkEnd: UInt = 0

    /// The heap that starts at `start` and ends at or before `end`, or nil when none does there (a thread's stack, a
    /// file, an allocator of its own). The kernel shows neighbouring anonymous mappings as one region, so a region
    /// may hold several: the caller asks again at the `limit` of each.
    init?(at start: UInt, before end: UInt, isMainHeap: Bool, reader: MemoryReader) {
        self.start = start
        self.reader = reader
        if isMainHeap {
            (first, limit, mappedApart) = (start, end, false)
            return
        }
        guard end - start >= 4_096, let header = reader.bytes(start, count: 32) else { return nil }
        let words = header.withUnsafeBytes { raw in (0..<4).map { raw.loadUnaligned(fromByteOffset: $0 * 8, as: UInt.self) } }
        let size = words[1] & ~7
        if words[1] & 2 != 0, words[1] & 5 == 0, size >= 4_096, size <= end - start, words[0] == 0 {
            (first, limit, mappedApart) = (start, start + size, true)
        } else if start % Self.arenaHeapAlignment == 0, words[0] != 0, words[2] > 32, words[2] <= Self.arenaHeapAlignment {
            // heap_info: ar_ptr, prev, size, mprotect_size; its chunks start past it (and past the arena's state).
            // The heap may have grown or shrunk since the mappings were read: the part both agree on.
            let heapEnd = min(start + words[2], end)
            guard let chunk = Self.firstChunk(after: start + 32, before: min(heapEnd, start + 8_192), limit: heapEnd, reader: reader)
            else { return nil }
            (first, limit, mappedApart) = (chunk, heapEnd, false)
        } else {
            return nil
        }
    }

    /// The first chunk's block: in each heap, malloc's per-thread cache when the thread's first allocation came here.
    var firstBlock: UInt { first + 16 }

    /// The block whose bytes hold `address`, or nil when none does (a chunk header, the top chunk, past a broken
    /// walk).
    func block(containing address: UInt) -> Block? {
        guard address >= first + 16, address < limit else { return nil }
        if mappedApart {
            return Block(start: first + 16, size: Int(limit - first - 16), inUse: true)
        }
        if !walked { walk() }
        guard address < walkEnd else { return nil }
        // The last checkpoint at or before the address, then chunk by chunk from there.
        var low = 0
        var high = checkpoints.count
        while low < high {
            let middle = (low + high) / 2
            if checkpoints[middle] <= address { low = middle + 1 } else { high = middle }
        }
        guard low > 0 else { return nil }
        // The chunk headers from the checkpoint up to the address, in one read when they are near (they are, unless a
        // block larger than the checkpoints' spacing lies between), else a word at a time.
        var chunk = checkpoints[low - 1]
        let span = Int(address - chunk) + 16
        let near = span <= 1 << 20 ? reader.bytes(chunk, count: span) : nil
        let base = chunk
        func sizeWord(_ at: UInt) -> UInt? {
            let offset = Int(at - base) + 8
            if let near, offset + 8 <= near.count { return near.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: UInt.self) } }
            return reader.word(at + 8)
        }
        while let word = sizeWord(chunk) {
            let size = word & ~7
            // Sizes are read from memory other threads change: compared by subtraction, so none can overflow.
            guard size >= Self.minimumChunk, chunk < walkEnd, size <= walkEnd - chunk else { return nil }
            let next = chunk + size
            // A block in use also has the next chunk's first word (its `prev_size`, which malloc reads only when this
            // chunk is free).
            if address < next + 8 {
                guard address >= chunk + 16 else { return nil }
                // In use when the next chunk says so; the top chunk (nothing after it) never is.
                let inUse = next < walkEnd && (reader.word(next + 8) ?? 0) & 1 != 0
                return Block(start: chunk + 16, size: Int(size) - 8, inUse: inUse)
            }
            chunk = next
        }
        return nil
    }

    /// Walks every chunk once in bulk reads, keeping checkpoints. Optimised even in a debug build of the app: it steps
    /// through every chunk of the heap.
    @_optimize(speed)
    private func walk() {
        walked = true
        walkEnd = first
        var chunk = first
        var nextCheckpoint = first
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        // A size that does not fit is most often a header another thread's malloc was writing as it was copied: the
        // walk reads again from the last chunk it trusts, a few times, before it stops there.
        var rereads = 0
        var trusted = chunk
        while chunk + 16 <= limit {
            let readFrom = chunk
            let want = Int(min(UInt(buffer.count), limit - readFrom))
            let got = buffer.withUnsafeMutableBytes { reader.read(readFrom, count: want, into: $0.baseAddress!) }
            guard got >= 16 else { return }
            let broken = buffer.withUnsafeBytes { raw -> Bool in
                while chunk + 16 <= readFrom + UInt(got) {
                    let size = raw.loadUnaligned(fromByteOffset: Int(chunk - readFrom) + 8, as: UInt.self) & ~7
                    guard size >= Self.minimumChunk, size & 15 == 0, size <= limit - chunk else { return true }
                    if chunk >= nextCheckpoint {
                        checkpoints.append(chunk)
                        nextCheckpoint = chunk + Self.checkpointSpacing
                    }
                    trusted = chunk
                    chunk += size
                    walkEnd = chunk
                }
                return false
            }
            if broken {
                // The size that led here may be the torn one: from the chunk before it.
                guard rereads < Self.rereadsAtABreak else { return }
                rereads += 1
                chunk = trusted
                walkEnd = chunk
            }
        }
    }

    /// The first chunk of another arena's heap: the first place past its header from which chunk sizes follow one
    /// another sensibly for a while (its state is pointers and zeros, which never do).
    private static func firstChunk(after start: UInt, before end: UInt, limit: UInt, reader: MemoryReader) -> UInt? {
        guard end > start, let bytes = reader.bytes(start, count: Int(end - start) + 4_096) else { return nil }
        return bytes.withUnsafeBytes { raw -> UInt? in
            func size(at offset: Int) -> UInt? {
                offset + 16 <= raw.count ? raw.loadUnaligned(fromByteOffset: offset + 8, as: UInt.self) : nil
            }
            for candidate in stride(from: 0, to: Int(end - start), by: 16) {
                // The chunk before the first is the header: it reads as in use.
                guard let word = size(at: candidate), word & 1 != 0 else { continue }
                var offset = candidate
                var steps = 0
                while steps < 16, let word = size(at: offset) {
                    let chunk = word & ~7
                    guard chunk >= minimumChunk, chunk & 15 == 0, chunk <= limit - (start + UInt(offset)) else { break }
                    offset += Int(chunk)
                    steps += 1
                }
                if steps >= 16 || (steps > 0 && size(at: offset) == nil) { return start + UInt(candidate) }
            }
            return nil
        }
    }
}
#endif
#endif
