#if RetainerSearch && canImport(Glibc)
// The search's own tests: a build without the RetainerSearch trait has no search to test.
import CoordinatorTrace
import Foundation
import Synchronization
import Testing

/// The standard library's wrappers that hold a value of the app's: each was read as holding nothing (the library's
/// own values), so a coordinator kept through one read as unreachable.
extension RetainerSearchTests {
    @Test func aSetOfAnyHashableHoldsItThroughTheBoxedValue() throws {
        let found = try search { _, _, _, share in
            LibraryValues.hashables.value = [AnyHashable(7), AnyHashable(FlowKey(share))]
        }
        #expect(found.outcome == .live, "\(found)")
        #expect(found.description.hasPrefix("static LibraryValues.hashables › StaticBox<Set<AnyHashable>>.value["), "\(found)")
        #expect(found.description.hasSuffix("] (element) › FlowKey.object › Coordinator#3"), "\(found)")
    }

    @Test func anInlineArrayHoldsItInline() throws {
        let found = try search { _, _, _, share in LibraryValues.inline.value = [nil, share] }
        #expect(found.outcome == .live, "\(found)")
        #expect(found.description == "static LibraryValues.inline › StaticBox<InlineArray<2, Optional<AnyObject>>>.value[1] › Coordinator#3", "\(found)")
    }

    @Test func aMutexInAStaticHoldsIt() throws {
        let found = try search(timeBudget: RetainerRootsTests.backwardBudget) { _, _, _, share in
            let held = Unchecked(share)
            LibraryValues.mutex.withLock { $0 = held.value }
        }
        LibraryValues.mutex.withLock { $0 = nil }
        guard RetainerRootsTests.heapIsGlibcs else { return }
        #expect(found.outcome == .live, "\(found)")
        #expect(found.description == "static LibraryValues.mutex › Coordinator#3", "\(found)")
    }

    /// Swift's reflection hides a noncopyable field (its record names a function that returns `()`), so the walk read
    /// the box as holding nothing: its words are read one by one now.
    @Test func aNoncopyableFieldHoldsIt() throws {
        let found = try search { _, _, _, share in LibraryValues.token.token = FlowToken(owner: share) }
        LibraryValues.token.token = FlowToken(owner: nil)
        #expect(found.outcome == .live, "\(found)")
        #expect(found.description == "static LibraryValues.token › TokenBox.token (noncopyable, read word by word) › Coordinator#3", "\(found)")
    }

    /// The move-only completion: a noncopyable value whose closure captures the coordinator.
    @Test func aNoncopyableValuesClosureHoldsIt() throws {
        let found = try search { _, _, _, share in LibraryValues.oneShot.handler = OneShot { [share] in _ = share } }
        LibraryValues.oneShot.handler = OneShot {}
        #expect(found.outcome == .live, "\(found)")
        #expect(found.description.hasPrefix("static LibraryValues.oneShot › OneShotBox.handler (noncopyable, read word by word)"), "\(found)")
        #expect(found.description.hasSuffix("› Coordinator#3"), "\(found)")
    }

    /// An empty noncopyable permit takes no bytes: the `unowned` reference after it is not read as its word.
    @Test func anEmptyNoncopyableFieldDoesNotReadTheNextFieldsWord() throws {
        // Kept alive by a retain nothing names, so that only a misread word could make a path.
        var kept: Unmanaged<RetainerSearchTests.Coordinator>?
        let found = try search { _, _, _, share in
            kept = Unmanaged.passRetained(share)
            LibraryValues.permit.owner = share
        }
        LibraryValues.permit.owner = nil
        kept?.release()
        #expect(found.outcome != .live, "\(found)")
        #expect(!found.description.contains("PermitBox"), "\(found)")
    }
}

/// A noncopyable value with nothing in it, as a flow's one-time permission without state is.
struct Permit: ~Copyable {}

/// A class whose empty noncopyable field is followed by an `unowned(unsafe)` reference at the same offset.
final class PermitBox: @unchecked Sendable {
    var permit = Permit()
    unowned(unsafe) var owner: AnyObject? = nil
}

/// A move-only completion handler, called once.
struct OneShot: ~Copyable {
    let run: () -> Void
    init(_ run: @escaping () -> Void) { self.run = run }
}

/// A class that keeps a move-only completion handler.
final class OneShotBox: @unchecked Sendable {
    var handler = OneShot {}
}

/// A move-only token that keeps what it was issued for, as a flow's one-time permission does.
struct FlowToken: ~Copyable {
    var owner: AnyObject?
}

/// A class that keeps a noncopyable value.
final class TokenBox: @unchecked Sendable {
    var token = FlowToken(owner: nil)
}

/// A hashable key that keeps its object, as a flow's identity in an app's cache does.
final class FlowKey: Hashable, @unchecked Sendable {
    let object: AnyObject
    init(_ object: AnyObject) { self.object = object }
    static func == (left: FlowKey, right: FlowKey) -> Bool { left.object === right.object }
    func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(object)) }
}

/// Two optional objects after an `Int` header, as a ring buffer keeps its elements.
final class FlowBuffer: ManagedBuffer<Int, AnyObject?> {}

/// A box a static keeps.
final class StaticBox<Value>: @unchecked Sendable {
    var value: Value
    init(_ value: Value) { self.value = value }
}

enum LibraryValues {
    static let hashables = StaticBox<Set<AnyHashable>>([])
    static let inline = StaticBox<InlineArray<2, AnyObject?>>([nil, nil])
    static let buffer = StaticBox<FlowBuffer?>(nil)
    static let mutex = Mutex<RetainerSearchTests.Coordinator?>(nil)
    static let token = TokenBox()
    static let oneShot = OneShotBox()
    static let permit = PermitBox()
}
#endif
