#if RetainerSearch && canImport(Glibc)
// The search's own tests: a build without the RetainerSearch trait has no search to test.
import Glibc
import Testing

@testable import CoordinatorTrace

/// The forward walk's reads through whole pages: the same bytes and the same short reads as the faultless reader, one
/// system call a page until the cache is emptied, and never a fault.
@Suite struct PageCacheTests {
    /// Three pages: the first two readable (`0x5A`, then `0xA5`), the third with no access; unmapped when the body
    /// returns.
    private func withGuardedPages(_ body: (UnsafeMutableRawPointer, Int, PageCache) throws -> Void) throws {
        guard case .success(let reader) = MemoryReader.shared else { return }
        let pageSize = Int(getpagesize())
        let mapped: UnsafeMutableRawPointer? = mmap(nil, 3 * pageSize, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
        let pages = try #require(mapped.flatMap { $0 == MAP_FAILED ? nil : $0 }, "mmap: \(String(cString: strerror(errno)))")
        defer { munmap(pages, 3 * pageSize) }
        memset(pages, 0x5A, pageSize)
        memset(pages + pageSize, 0xA5, pageSize)
        try #require(mprotect(pages + 2 * pageSize, pageSize, PROT_NONE) == 0)
        try body(pages, pageSize, PageCache(reader: reader, slotCount: 8))
    }

    @Test func readsInOnePageCostOneSystemCall() throws {
        try withGuardedPages { pages, _, cache in
            let start = UInt(bitPattern: pages)
            for offset in stride(from: 0, to: 4_000, by: 40) {
                #expect(cache.word(start + UInt(offset)) == 0x5A5A_5A5A_5A5A_5A5A)
            }
            #expect(cache.fills == 1)
            #expect(cache.reads == 100)
        }
    }

    @Test func aReadAcrossTwoPagesJoinsThem() throws {
        try withGuardedPages { pages, pageSize, cache in
            let bytes = try #require(cache.bytes(UInt(bitPattern: pages) + UInt(pageSize - 4), count: 8))
            #expect(bytes == [0x5A, 0x5A, 0x5A, 0x5A, 0xA5, 0xA5, 0xA5, 0xA5])
            #expect(cache.fills == 2)
        }
    }

    @Test func aReadIntoAnUnreadablePageStopsThereAsTheReaderDoes() throws {
        try withGuardedPages { pages, pageSize, cache in
            var buffer = [UInt8](repeating: 0, count: 16)
            let start = UInt(bitPattern: pages) + UInt(2 * pageSize - 8)
            let got = buffer.withUnsafeMutableBytes { cache.read(start, count: 16, into: $0.baseAddress!) }
            #expect(got == 8)
            #expect(buffer[0..<8].allSatisfy { $0 == 0xA5 })
            #expect(cache.word(start + 4) == nil, "a word half in the unreadable page")
            #expect(cache.word(UInt(bitPattern: pages) + UInt(2 * pageSize)) == nil)
            #expect(cache.word(0x10) == nil, "below the lowest mapping")
        }
    }

    @Test func forgettingShowsTheMemoryAsItIsNow() throws {
        try withGuardedPages { pages, _, cache in
            let start = UInt(bitPattern: pages)
            #expect(cache.word(start) == 0x5A5A_5A5A_5A5A_5A5A)
            pages.storeBytes(of: 7, as: UInt.self)
            #expect(cache.word(start) == 0x5A5A_5A5A_5A5A_5A5A, "the pass's copy until it is emptied")
            cache.forget()
            #expect(cache.word(start) == 7)
            #expect(cache.fills == 2)
        }
    }

    @Test func pagesThatShareASlotReplaceEachOther() throws {
        try withGuardedPages { _, pageSize, cache in
            // Eight slots: pages eight apart share one.
            let mapped: UnsafeMutableRawPointer? = mmap(nil, 9 * pageSize, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
            let far = try #require(mapped.flatMap { $0 == MAP_FAILED ? nil : $0 })
            defer { munmap(far, 9 * pageSize) }
            far.storeBytes(of: 1, as: UInt.self)
            (far + 8 * pageSize).storeBytes(of: 2, as: UInt.self)
            let (first, ninth) = (UInt(bitPattern: far), UInt(bitPattern: far + 8 * pageSize))
            #expect(cache.word(first) == 1)
            #expect(cache.word(ninth) == 2)
            #expect(cache.word(first) == 1)
            #expect(cache.fills == 3, "the first page read again after the ninth took its slot")
        }
    }

    @Test func aLargeReadGoesToTheReaderWhole() throws {
        try withGuardedPages { pages, pageSize, cache in
            let whole = cache.bytes(UInt(bitPattern: pages), count: 2 * pageSize + 8)
            #expect(whole == nil, "it runs into the unreadable page")
            let two = try #require(cache.bytes(UInt(bitPattern: pages) + 8, count: 2 * pageSize - 8))
            #expect(two.count == 2 * pageSize - 8)
            #expect(cache.fills == 2, "at most two pages through the cache")
        }
    }
}
#endif
