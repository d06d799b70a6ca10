#if RetainerSearch && canImport(Glibc)
// The search's own tests: a build without the RetainerSearch trait has no search to test.
import Glibc
import Testing

@testable import CoordinatorTrace

/// The faultless reads the search makes everything of: a read that runs into a page nobody may read stops there,
/// returning what came before, and never faults.
@Suite struct MemoryReaderTests {
    /// Two pages, the second with no access, the first filled with `0x5A`; unmapped when the body returns.
    private func withGuardedPage(_ body: (UnsafeMutableRawPointer, Int, MemoryReader) throws -> Void) throws {
        guard case .success(let reader) = MemoryReader.shared else { return }
        let pageSize = Int(getpagesize())
        let mapped: UnsafeMutableRawPointer? = mmap(nil, 2 * pageSize, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
        let pages = try #require(mapped.flatMap { $0 == MAP_FAILED ? nil : $0 }, "mmap: \(String(cString: strerror(errno)))")
        defer { munmap(pages, 2 * pageSize) }
        memset(pages, 0x5A, pageSize)
        try #require(mprotect(pages + pageSize, pageSize, PROT_NONE) == 0)
        try body(pages, pageSize, reader)
    }

    @Test func aSmallReadAcrossIntoAnUnreadablePageReturnsTheReadablePart() throws {
        try withGuardedPage { pages, pageSize, reader in
            var buffer = [UInt8](repeating: 0, count: 16)
            let start = UInt(bitPattern: pages) + UInt(pageSize - 8)
            let got = buffer.withUnsafeMutableBytes { reader.read(start, count: 16, into: $0.baseAddress!) }
            #expect(got == 8)
            #expect(buffer[0..<8].allSatisfy { $0 == 0x5A })
            #expect(reader.word(start) == 0x5A5A_5A5A_5A5A_5A5A)
            #expect(reader.word(start + 4) == nil, "a word half in the unreadable page")
            #expect(reader.uint32(UInt(bitPattern: pages) + UInt(pageSize)) == nil)
        }
    }

    @Test func aLargeReadStopsAtTheUnreadablePage() throws {
        try withGuardedPage { pages, pageSize, reader in
            var buffer = [UInt8](repeating: 0, count: 2 * pageSize)
            let got = buffer.withUnsafeMutableBytes { reader.read(UInt(bitPattern: pages) + 16, count: 2 * pageSize - 16, into: $0.baseAddress!) }
            #expect(got == pageSize - 16)
            #expect(reader.bytes(UInt(bitPattern: pages), count: pageSize) != nil)
            #expect(reader.bytes(UInt(bitPattern: pages), count: pageSize + 1) == nil)
        }
    }

    @Test func aReadWithinOnePageIsWhole() throws {
        try withGuardedPage { pages, pageSize, reader in
            var buffer = [UInt8](repeating: 0, count: 256)
            let got = buffer.withUnsafeMutableBytes { reader.read(UInt(bitPattern: pages) + 100, count: 256, into: $0.baseAddress!) }
            #expect(got == 256)
            #expect(buffer.allSatisfy { $0 == 0x5A })
            #expect(reader.read(UInt(bitPattern: pages) + UInt(pageSize), count: 8, into: &buffer) == 0)
        }
    }
}
#endif
