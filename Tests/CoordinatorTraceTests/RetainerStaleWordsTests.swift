#if RetainerSearch && canImport(Glibc)
// The search's own tests: a build without the RetainerSearch trait has no search to test.
import Foundation
import Testing

@testable import CoordinatorTrace

/// Words a collection no longer uses: an emptied bucket and spare capacity keep the bytes they held, and an object's
/// address left there is no reference. The backward search once went through such a word of a test runner's
/// dictionary, held by one of its tasks, and named that task the root of another test's leak.
@Suite struct RetainerStaleWordsTests {
    final class Flow {}

    /// The addresses in the storage block at `storage` whose word is `address`.
    ///
    /// Only the block's own bytes: a word past its end belongs to the next allocation, which may hold the same address
    /// (another test's collection), and the search never asks about it. Inside the block the address may show up more
    /// than once: malloc hands memory back uninitialised, and an earlier test's words there can name an object whose
    /// address is now `kept`'s; so a test expects exactly one of the places in use, not one place.
    private static func places(of address: UInt, in storage: UInt, reader: MemoryReader) throws -> [UInt] {
        let bytes = try #require(usableSize(of: storage))
        let words = try #require(reader.bytes(storage, count: bytes))
        return words.withUnsafeBytes { raw in
            stride(from: 16, to: bytes - 7, by: 8).compactMap { raw.load(fromByteOffset: $0, as: UInt.self) == address ? storage + UInt($0) : nil }
        }
    }

    /// The bytes malloc gave the block at `address`: Glibc's module map leaves `malloc.h` out, so the call is looked up
    /// in the process (nil is RTLD_DEFAULT; under AddressSanitizer it finds the interceptor).
    private static func usableSize(of address: UInt) -> Int? {
        typealias UsableSize = @convention(c) (UnsafeMutableRawPointer?) -> Int
        guard let symbol = dlsym(nil, "malloc_usable_size") else { return nil }
        return unsafeBitCast(symbol, to: UsableSize.self)(UnsafeMutableRawPointer(bitPattern: address))
    }

    private static func tailElements() throws -> (TailElements, LayoutDecoder) {
        guard case .success(let reader) = MemoryReader.shared, case .success(let runtime) = RuntimeEntryPoints.shared else {
            throw CancellationError()
        }
        let decoder = LayoutDecoder(reader: reader, runtime: runtime)
        return (TailElements(decoder: decoder), decoder)
    }

    /// Whether the word at each of `places` is in use, as the backward search asks it of the storage at `storage`.
    private static func inUse(_ places: [UInt], storage: UInt) throws -> [Bool?] {
        let (tail, decoder) = try tailElements()
        let header = try #require(decoder.reader.word(storage))
        guard case .instance(let layout)? = decoder.layout(ofHeapObjectWith: RetainerSearch.isaMask & header) else {
            Issue.record("the storage does not read as an object")
            return []
        }
        let name = decoder.name(ofType: layout.metadata)
        return places.map { tail.isInUse($0, storage: storage, metadata: layout.metadata, layout: layout, name: name) }
    }

    @Test func anEmptiedBucketIsNotInUseAndAnOccupiedOneIs() throws {
        let (kept, gone) = (Flow(), Flow())
        var flows: [String: AnyObject] = [:]
        flows.reserveCapacity(16)
        flows["kept"] = kept
        flows["gone"] = gone
        flows["gone"] = nil
        let storage = unsafeBitCast(flows, to: UInt.self)
        let (_, decoder) = try Self.tailElements()
        let stale = try Self.places(of: UInt(bitPattern: ObjectIdentifier(gone)), in: storage, reader: decoder.reader)
        let live = try Self.places(of: UInt(bitPattern: ObjectIdentifier(kept)), in: storage, reader: decoder.reader)
        try #require(!stale.isEmpty, "removing a value leaves its bytes in its bucket")
        #expect(try Self.inUse(stale, storage: storage).allSatisfy { $0 == false })
        #expect(try Self.inUse(live, storage: storage).filter { $0 == true }.count == 1)
        withExtendedLifetime((flows, kept, gone)) {}
    }

    @Test func anArraysSpareCapacityIsNotInUse() throws {
        let (kept, gone) = (Flow(), Flow())
        var stack: [AnyObject] = []
        stack.reserveCapacity(8)
        stack.append(kept)
        stack.append(gone)
        stack.removeLast()
        let storage = unsafeBitCast(stack, to: UInt.self)
        let (_, decoder) = try Self.tailElements()
        let stale = try Self.places(of: UInt(bitPattern: ObjectIdentifier(gone)), in: storage, reader: decoder.reader)
        let live = try Self.places(of: UInt(bitPattern: ObjectIdentifier(kept)), in: storage, reader: decoder.reader)
        try #require(!stale.isEmpty, "removing the last element leaves its bytes in the spare capacity")
        #expect(try Self.inUse(stale, storage: storage) == [false])
        #expect(try Self.inUse(live, storage: storage).filter { $0 == true }.count == 1)
        withExtendedLifetime((stack, kept, gone)) {}
    }

    @Test func aSetsEmptiedBucketIsNotInUse() throws {
        let (kept, gone) = (Flow(), Flow())
        var seen: Set<ObjectIdentifier> = []
        seen.reserveCapacity(16)
        seen.insert(ObjectIdentifier(kept))
        seen.insert(ObjectIdentifier(gone))
        seen.remove(ObjectIdentifier(gone))
        let storage = unsafeBitCast(seen, to: UInt.self)
        let (_, decoder) = try Self.tailElements()
        let stale = try Self.places(of: UInt(bitPattern: ObjectIdentifier(gone)), in: storage, reader: decoder.reader)
        let live = try Self.places(of: UInt(bitPattern: ObjectIdentifier(kept)), in: storage, reader: decoder.reader)
        try #require(!stale.isEmpty)
        #expect(try Self.inUse(stale, storage: storage).allSatisfy { $0 == false })
        #expect(try Self.inUse(live, storage: storage).filter { $0 == true }.count == 1)
        withExtendedLifetime((seen, kept, gone)) {}
    }
}
#endif
