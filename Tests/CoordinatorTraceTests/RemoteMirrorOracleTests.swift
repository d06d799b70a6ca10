#if RetainerSearch
// The search's own tests: a build without the RetainerSearch trait has no search to test.
import Foundation
import Testing

/// The oracle against objects whose layout the tests know by other means: a stored property's offset is the first word
/// of the object that assigning the property changes, a size is the two-word header plus `MemoryLayout` of the same
/// fields in a struct (or tuple), a type name is `String(reflecting:)`, and a capture's bytes hold what was captured.
@Suite(.enabled(if: RemoteMirrorOracle.isAvailable, RemoteMirrorOracle.whyUnavailable))
struct RemoteMirrorOracleTests {
    /// What the fixtures' references point to.
    final class Referent {}

    /// A final class with one stored property of each kind the retainer search tells apart.
    final class Fixture {
        var number = 1
        var text = "a"
        var strong: Referent
        weak var weakReferent: Referent?
        unowned var unownedReferent: Referent

        init(_ referent: Referent) {
            strong = referent
            unownedReferent = referent
        }
    }

    /// `Fixture`'s stored properties in a struct, for their size.
    struct FixtureFields {
        var number: Int
        var text: String
        var strong: Referent
        weak var weakReferent: Referent?
        unowned var unownedReferent: Referent
    }

    /// A superclass with a value and a strong reference.
    class Screen {
        var title = "a"
        var owner: Referent

        init(_ owner: Referent) { self.owner = owner }
    }

    /// A subclass adding a value and a weak reference after its superclass's fields.
    final class DetailScreen: Screen {
        var detail = 1
        weak var delegate: Referent?
    }

    /// `DetailScreen`'s stored properties, its superclass's first, in a struct, for their size.
    struct DetailScreenFields {
        var title: String
        var owner: Referent
        var detail: Int
        weak var delegate: Referent?
    }

    /// Keeps a closure in a property of function type, as screens keep their callbacks.
    final class Holder {
        var action: () -> Void = {}
    }

    /// A generic class: its field types are known only with its generic argument.
    final class Box<Value> {
        var value: Value
        var handler: ((Value) -> Void)?

        init(_ value: Value) { self.value = value }
    }

    /// `Box<Value>`'s stored properties in a struct, for their size.
    struct BoxFields<Value> {
        var value: Value
        var handler: ((Value) -> Void)?
    }

    /// A heap object starts with its metadata pointer and its reference counts.
    static let headerSize = 2 * MemoryLayout<UInt>.size

    @Test func aFinalClassFieldsAtTheOffsetsTheirAssignmentsWriteWithTheirStrength() throws {
        let oracle = try RemoteMirrorOracle.shared.get()
        let referent = Referent()
        let other = Referent()
        let fixture = Fixture(referent)
        defer { withExtendedLifetime((fixture, referent, other)) {} }
        let size = Self.headerSize + MemoryLayout<FixtureFields>.size

        let read = try #require(oracle.instance(at: address(of: fixture)))

        #expect(read.kind == "class instance")
        #expect(read.name == String(reflecting: Fixture.self))
        #expect(read.size == size)
        let expected = [
            RemoteMirrorOracle.Child(
                name: "number", offset: try offsetWritten(in: fixture, size: size) { $0.number = 2 }, kind: "struct",
                typeName: String(reflecting: Int.self)),
            RemoteMirrorOracle.Child(
                name: "text", offset: try offsetWritten(in: fixture, size: size) { $0.text = "b" }, kind: "struct",
                typeName: String(reflecting: String.self)),
            RemoteMirrorOracle.Child(
                name: "strong", offset: try offsetWritten(in: fixture, size: size) { $0.strong = other }, kind: "strong",
                typeName: String(reflecting: Referent.self)),
            RemoteMirrorOracle.Child(
                name: "weakReferent", offset: try offsetWritten(in: fixture, size: size) { $0.weakReferent = other }, kind: "weak",
                typeName: "weak \(String(reflecting: Referent?.self))"),
            RemoteMirrorOracle.Child(
                name: "unownedReferent", offset: try offsetWritten(in: fixture, size: size) { $0.unownedReferent = other }, kind: "unowned",
                typeName: "unowned \(String(reflecting: Referent.self))"),
        ]
        #expect(read.children == expected)
    }

    @Test func aSubclassSuperclassFieldsFirstAsAnInstanceOfTheSuperclassShowsThem() throws {
        let oracle = try RemoteMirrorOracle.shared.get()
        let referent = Referent()
        let other = Referent()
        let screen = DetailScreen(referent)
        let plainScreen = Screen(referent)
        defer { withExtendedLifetime((screen, plainScreen, referent, other)) {} }
        let size = Self.headerSize + MemoryLayout<DetailScreenFields>.size

        let read = try #require(oracle.instance(at: address(of: screen)))
        let superclassRead = try #require(oracle.instance(at: address(of: plainScreen)))

        #expect(read.name == String(reflecting: DetailScreen.self))
        #expect(read.size == size)
        let expected = [
            RemoteMirrorOracle.Child(
                name: "title", offset: try offsetWritten(in: screen, size: size) { $0.title = "b" }, kind: "struct",
                typeName: String(reflecting: String.self)),
            RemoteMirrorOracle.Child(
                name: "owner", offset: try offsetWritten(in: screen, size: size) { $0.owner = other }, kind: "strong",
                typeName: String(reflecting: Referent.self)),
            RemoteMirrorOracle.Child(
                name: "detail", offset: try offsetWritten(in: screen, size: size) { $0.detail = 2 }, kind: "struct",
                typeName: String(reflecting: Int.self)),
            RemoteMirrorOracle.Child(
                name: "delegate", offset: try offsetWritten(in: screen, size: size) { $0.delegate = other }, kind: "weak",
                typeName: "weak \(String(reflecting: Referent?.self))"),
        ]
        #expect(read.children == expected)
        #expect(Array(read.children.prefix(superclassRead.children.count)) == superclassRead.children)
        // The subclass's own fields start where an instance of the superclass ends.
        #expect(read.children.dropFirst(superclassRead.children.count).allSatisfy { $0.offset >= superclassRead.size })
    }

    @Test func aClosureContextCapturesUnnamedAtTheirOffsetsHoldingWhatWasCaptured() throws {
        let oracle = try RemoteMirrorOracle.shared.get()
        let holder = Holder()
        let object = Referent()
        let number = 0x5EED
        defer { withExtendedLifetime((holder, object)) {} }
        let holderSize = Self.headerSize + MemoryLayout<() -> Void>.size
        let actionOffset = try offsetWritten(in: holder, size: holderSize) {
            $0.action = {
                _ = object
                _ = number
            }
        }
        // A function value is two words: the code, then the context.
        let context = UnsafeRawPointer(Unmanaged.passUnretained(holder).toOpaque())
            .load(fromByteOffset: actionOffset + MemoryLayout<UInt>.size, as: UInt.self)
        let contextSize = Self.headerSize + MemoryLayout<(Referent, Int)>.size

        let holderRead = try #require(oracle.instance(at: address(of: holder)))
        let read = try #require(oracle.instance(at: context))

        #expect(holderRead.children == [.init(name: "action", offset: actionOffset, kind: "closure", typeName: String(reflecting: (() -> Void).self))])
        #expect(read.kind == "closure context")
        #expect(read.size == contextSize)
        // Captured in the order the closure first uses them, laid out as a tuple of them after the header.
        let expected = [
            RemoteMirrorOracle.Child(
                name: "", offset: Self.headerSize + MemoryLayout<(Referent, Int)>.offset(of: \(Referent, Int).0)!, kind: "strong",
                typeName: String(reflecting: Referent.self)),
            RemoteMirrorOracle.Child(
                name: "", offset: Self.headerSize + MemoryLayout<(Referent, Int)>.offset(of: \(Referent, Int).1)!, kind: "struct",
                typeName: String(reflecting: Int.self)),
        ]
        #expect(read.children == expected)
        let contextStart = try #require(UnsafeRawPointer(bitPattern: context))
        let captured = read.children.filter { $0.offset + MemoryLayout<UInt>.size <= contextSize }.map {
            contextStart.load(fromByteOffset: $0.offset, as: UInt.self)
        }
        #expect(captured == [address(of: object), UInt(number)])
    }

    @Test func aGenericClassOverAnInt() throws {
        try expectBoxRead(1, replacedBy: 2, valueKind: "struct")
    }

    @Test func aGenericClassOverAClass() throws {
        let first = Referent()
        let second = Referent()
        defer { withExtendedLifetime((first, second)) {} }
        try expectBoxRead(first, replacedBy: second, valueKind: "strong")
    }

    @Test func memoryNothingMayReadGivesNilNotACrash() throws {
        let oracle = try RemoteMirrorOracle.shared.get()
        let pageSize = Int(getpagesize())
        // A page reserved with no access at all: loading from it would end the test run.
        let reserved: UnsafeMutableRawPointer? = mmap(nil, pageSize, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
        let page = try #require(reserved.flatMap { $0 == MAP_FAILED ? nil : $0 }, "mmap: \(String(cString: strerror(errno)))")
        defer { munmap(page, pageSize) }

        #expect(oracle.instance(at: UInt(bitPattern: page)) == nil)
        // Kernel space, which no read from user space reaches.
        #expect(oracle.instance(at: UInt.max - UInt(pageSize - 1)) == nil)
    }

    /// A `Box<Value>` holding `value`: its fields' names, offsets (those `replacement` and a handler write), kinds and
    /// types as the generic arguments make them.
    private func expectBoxRead<Value>(_ value: Value, replacedBy replacement: Value, valueKind: String) throws {
        let oracle = try RemoteMirrorOracle.shared.get()
        let box = Box(value)
        defer { withExtendedLifetime(box) {} }
        let size = Self.headerSize + MemoryLayout<BoxFields<Value>>.size

        let read = try #require(oracle.instance(at: address(of: box)))

        #expect(read.name == String(reflecting: Box<Value>.self))
        #expect(read.size == size)
        let expected = [
            RemoteMirrorOracle.Child(
                name: "value", offset: try offsetWritten(in: box, size: size) { $0.value = replacement }, kind: valueKind,
                typeName: String(reflecting: Value.self)),
            RemoteMirrorOracle.Child(
                name: "handler", offset: try offsetWritten(in: box, size: size) { $0.handler = { _ in } }, kind: "single-payload enum",
                typeName: String(reflecting: ((Value) -> Void)?.self)),
        ]
        #expect(read.children == expected)
    }

    /// The object's address, what the oracle is given.
    private func address(of object: AnyObject) -> UInt { UInt(bitPattern: Unmanaged.passUnretained(object).toOpaque()) }

    /// Where `assign` stores into `object`: the offset of the first word after the header that it changes, found from
    /// the object's bytes alone (its first `size` bytes), without any reflection metadata.
    private func offsetWritten<Object: AnyObject>(
        in object: Object, size: Int, sourceLocation: SourceLocation = #_sourceLocation, by assign: (Object) -> Void
    ) throws -> Int {
        let start = UnsafeRawPointer(Unmanaged.passUnretained(object).toOpaque())
        let offsets = Array(stride(from: Self.headerSize, to: size - MemoryLayout<UInt>.size + 1, by: MemoryLayout<UInt>.size))
        let before = offsets.map { start.load(fromByteOffset: $0, as: UInt.self) }
        assign(object)
        let after = offsets.map { start.load(fromByteOffset: $0, as: UInt.self) }
        let changed = try #require(
            before.indices.first { before[$0] != after[$0] }, "the assignment changed none of the object's words", sourceLocation: sourceLocation)
        return offsets[changed]
    }
}

extension RemoteMirrorOracle {
    /// Whether this machine has the oracle; the tests that need it are skipped without it.
    static var isAvailable: Bool { (try? shared.get()) != nil }

    /// What a skipped test says: why there is no oracle.
    static var whyUnavailable: Comment {
        switch shared {
        case .success: "the Remote Mirror oracle is available"
        case .failure(let unavailable): Comment(rawValue: "no Remote Mirror oracle: \(unavailable.reason)")
        }
    }
}
#endif
