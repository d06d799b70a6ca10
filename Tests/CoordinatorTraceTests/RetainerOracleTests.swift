#if RetainerSearch
// The search's own tests: a build without the RetainerSearch trait has no search to test.
import Foundation
import Testing

@testable import CoordinatorTrace

/// The walker's own decoding against Swift's Remote Mirror library (what debuggers and swift-inspect use), both reading
/// the same memory: for every object and closure context the search reads in every zoo shape, the stored properties
/// (names, offsets, weak or strong) and the captures (offsets, weak or strong) must be the same.
@Suite struct RetainerOracleTests {
    static let oracle = RemoteMirrorOracle.shared

    /// A shape too big to cross-check object by object (a million elements, a 100,000-deep chain).
    static func isHuge(_ shape: RetainerZooTests.Shape) -> Bool {
        shape.options.maximumObjects > RetainerSearchOptions().maximumObjects || shape.name.lowercased().contains("million")
            || shape.name.lowercased().contains("thousand")
    }

    @Test(.enabled(if: (try? oracle.get()) != nil, "libswiftRemoteMirror is not on this machine: \((try? oracle.get()) == nil ? "\(oracle)" : "")"))
    func theWalkerReadsEveryZooObjectAsRemoteMirrorDoes() throws {
        let oracle = try Self.oracle.get()
        var instances = 0
        var contexts = 0
        var mismatches: [String] = []
        for shape in RetainerZooTests.allShapes() where !Self.isHuge(shape) {
            let app = RetainerZooTests.Coordinator()
            let share = RetainerZooTests.Coordinator()
            let built = shape.make(app, share)
            let search = RetainerSearch(ids: [:], options: shape.options)
            search.recordsReads = true
            _ = search.path(to: share, id: 3, roots: [app, built.holder])
            for address in Set(search.readAddresses).sorted().prefix(400) {
                guard let mine = search.decodedObject(at: address), let theirs = oracle.instance(at: address) else { continue }
                let expected = theirs.children.map { (name: $0.name, offset: $0.offset, isStrong: !["weak", "unowned", "unmanaged"].contains($0.kind)) }
                let read = mine.children.map { (name: $0.name, offset: $0.offset, isStrong: $0.isStrong) }
                if mine.isInstance {
                    instances += 1
                } else {
                    contexts += 1
                }
                // A context the walker stopped reading (a capture it cannot lay out) is compared as far as it read.
                let compared = mine.isInstance ? expected : Array(expected.prefix(read.count))
                guard
                    compared.map(\.name) != read.map(\.name) || compared.map(\.offset) != read.map(\.offset)
                        || compared.map(\.isStrong) != read.map(\.isStrong)
                else { continue }
                mismatches.append(
                    "\(shape.name): \(theirs.name ?? "?") at 0x\(String(address, radix: 16)): walker \(read), Remote Mirror \(theirs.children)")
            }
            built.teardown()
            withExtendedLifetime((app, share, built.holder)) {}
        }
        #expect(mismatches.isEmpty, "\(mismatches.count) objects read differently:\n\(mismatches.prefix(20).joined(separator: "\n"))")
        // Enough of both kinds were compared that the check means something.
        #expect(instances >= 100, "\(instances) instances compared")
        #expect(contexts >= 20, "\(contexts) closure contexts compared")
        print("RetainerOracleTests: \(instances) instances and \(contexts) closure contexts read alike")
    }

    /// The walker reads its own probe back before it reads an app; here it does.
    @Test func theWalkersProbeReadsBack() {
        #expect(LayoutSelfCheck.failure == nil, "\(LayoutSelfCheck.failure ?? "")")
    }
}
#endif
