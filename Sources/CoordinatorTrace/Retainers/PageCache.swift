#if RetainerSearch
// The whole file is the search's: a build without the RetainerSearch trait leaves it out (Package.swift).
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// Whole pages of the app's memory, each read once per pass of the search and then served from here: the walker's
/// reads are small (a header, an object, a closure context) and neighbours in the heap, so most of them share a page,
/// and a page costs one system call where each small read cost one. Reads that must see memory as it is now (a path
/// read again before it is reported) go to `MemoryReader` itself.
///
/// Direct-mapped, `slotCount` pages of the search's own memory (1 MiB by default: 256 pages of 4 KiB, 64 of Apple
/// silicon's 16 KiB), allocated on first use and emptied with `forget()`. One search owns one and uses it on one thread.
final class PageCache {
    private let reader: MemoryReader
    private let slotCount: Int
    /// Each slot's page number plus one; 0 for an empty slot.
    private let tags: UnsafeMutablePointer<UInt>
    /// `slotCount` pages, allocated on the first read.
    private var pages: UnsafeMutableRawPointer?
    /// System calls made to fill slots, and reads served: for the tests.
    private(set) var fills = 0
    private(set) var reads = 0

    static let pageSize = Int(getpagesize())
    /// Past this a read goes to the reader whole: a collection's storage read in chunks would empty the cache.
    static let largestCachedRead = 2 * pageSize
    static let defaultSlotCount = max(8, (1 << 20) / pageSize)

    init(reader: MemoryReader, slotCount: Int = defaultSlotCount) {
        self.reader = reader
        self.slotCount = slotCount
        tags = .allocate(capacity: slotCount)
        tags.initialize(repeating: 0, count: slotCount)
    }

    deinit {
        tags.deallocate()
        pages?.deallocate()
    }

    /// Drops every page read so far: the next read sees the memory as it is then.
    func forget() {
        tags.update(repeating: 0, count: slotCount)
    }

    /// `MemoryReader.read`'s contract: up to `count` bytes at `address` into `buffer`, how many were read, stopping at
    /// the first page that cannot be read.
    func read(_ address: UInt, count: Int, into buffer: UnsafeMutableRawPointer) -> Int {
        guard count > 0, address >= 4096, address &+ UInt(count) > address else { return 0 }
        guard count <= Self.largestCachedRead else { return reader.read(address, count: count, into: buffer) }
        reads += 1
        var done = 0
        while done < count {
            let at = address + UInt(done)
            let inPage = Int(at % UInt(Self.pageSize))
            let chunk = min(count - done, Self.pageSize - inPage)
            guard let page = page(containing: at) else { break }
            (buffer + done).copyMemory(from: page + inPage, byteCount: chunk)
            done += chunk
        }
        return done
    }

    /// One pointer-sized word, or nil.
    func word(_ address: UInt) -> UInt? {
        var value: UInt = 0
        return read(address, count: 8, into: &value) == 8 ? value : nil
    }

    /// A whole value of `count` bytes, or nil when any of it cannot be read.
    func bytes(_ address: UInt, count: Int) -> [UInt8]? {
        guard count >= 0, count <= 1 << 26 else { return nil }
        guard count <= Self.largestCachedRead else { return reader.bytes(address, count: count) }
        var bytes = [UInt8](repeating: 0, count: count)
        let read = bytes.withUnsafeMutableBytes { count == 0 ? 0 : self.read(address, count: count, into: $0.baseAddress!) }
        return read == count ? bytes : nil
    }

    /// The page holding `address`, read now unless its slot holds it; nil when it cannot be read (not kept: a page
    /// that does not read is rare, and may read later).
    private func page(containing address: UInt) -> UnsafeMutableRawPointer? {
        let number = address / UInt(Self.pageSize)
        let slot = Int(number % UInt(slotCount))
        let storage = pages ?? allocatePages()
        let page = storage + slot * Self.pageSize
        if tags[slot] == number &+ 1 { return page }
        fills += 1
        guard reader.read(number * UInt(Self.pageSize), count: Self.pageSize, into: page) == Self.pageSize else {
            tags[slot] = 0
            return nil
        }
        tags[slot] = number &+ 1
        return page
    }

    private func allocatePages() -> UnsafeMutableRawPointer {
        let storage = UnsafeMutableRawPointer.allocate(byteCount: slotCount * Self.pageSize, alignment: Self.pageSize)
        pages = storage
        return storage
    }
}
#endif
