#if RetainerSearch
// The search's own tests: a build without the RetainerSearch trait has no search to test.
import CoordinatorTrace
import Foundation
import Testing

#if canImport(OpenCombine)
import OpenCombine
#endif

/// The retainer search against every shape a Swift app holds a coordinator in: generic classes and closures made in
/// generic code, existentials, enums, tuples, collections, closures in closures, Combine subscriptions, actors, C
/// function pointers, key paths, Foundation values, huge arrays and deep chains. Each holds `Coordinator#3`, a
/// coordinator its parent removed, in one way; each test says what the search must report: the exact chain, or the
/// outcome where the design ends the branch (an actor, a Foundation class) or the search's budget runs out.
///
/// The object a shape builds is bound as the living `Home#2`'s screen, so the chain starts at it (or at `App#1`, for a
/// shape that hangs off the app coordinator). The retained coordinator is also kept alive where the search cannot look
/// (as a pending asynchronous closure would), so a shape that holds it only weakly, or only through a branch the search
/// does not follow, still leaves it to search.
@Suite struct RetainerZooTests {
    // MARK: - How a shape is searched

    /// What a shape builds.
    struct Built {
        /// Bound as Home's screen: where a chain starts.
        var holder: AnyObject
        var expected: Expected
        /// Takes apart what must not be freed recursively (a 100,000-deep chain would overflow the stack).
        var teardown: () -> Void = {}
    }

    /// What the search must say of the retained coordinator.
    enum Expected {
        /// The same, with a chain that starts at `screen` (Home#2's screen, the shape's holder) naming whose it is.
        func startingAt(screen: String) -> Expected {
            func named(_ text: String) -> String {
                text.hasPrefix(screen + ".") ? screen + " (screen of Coordinator#2)" + text.dropFirst(screen.count) : text
            }
            switch self {
            case .path(let outcome, let description): return .path(outcome, named(description))
            case .chain(let first, let ending, let steps): return .chain(first: named(first), ending: ending, steps: steps)
            case .outcome: return self
            }
        }

        /// This outcome (`.live` or `.cycle`) and exactly this description.
        case path(RetainerPath.Outcome, String)
        /// `.live`, starting with the step `first` and ending with `ending`, in a number of steps within `steps`; for
        /// chains whose middle is a library's own classes, or too long to spell.
        case chain(first: String, ending: String, steps: ClosedRange<Int>)
        /// No chain: this outcome (`.unreachable`, `.budget`).
        case outcome(RetainerPath.Outcome)
    }

    /// One way of holding the coordinator: `make` gets the living `App#1` and the retained `Share#3`.
    struct Shape {
        let name: String
        /// With the keys' text: the zoo compares paths as written (the hashed default is RetainerSearchTests'). The
        /// whole search's wall budget is wide: the zoo tests what the search finds, which counts CPU, not how long a
        /// loaded machine takes (with a second `make test` running, two shapes read "stopped at its budget after 0
        /// objects": the first search's one-time reading of the symbol tables had passed the default 2 s).
        var options = RetainerSearchOptions(totalTimeBudget: 30, sendsKeyText: true)
        let make: (_ app: Coordinator, _ share: Coordinator) -> Built
    }

    /// A fresh tracer with a living App#1 and Home#2 and a removed Share#3 held as `shape` holds it; what the search
    /// says of Share#3 and what the shape expects.
    static func search(_ shape: Shape) throws -> (found: RetainerPath, expected: Expected, screen: String) {
        let tracer = Tracer()
        tracer.start(app: "Zoo", sink: MemorySink(), options: TraceOptions(grace: 0, retainerSearch: shape.options))
        let app = Coordinator()
        let home = Coordinator()
        let share = Coordinator()
        tracer.added(app, to: nil)
        tracer.added(home, to: app)
        tracer.added(share, to: home)
        let built = shape.make(app, share)
        tracer.bind(home, to: built.holder)
        tracer.removed(share, from: home)
        let paths = tracer.searchRetainers()
        tracer.end()
        built.teardown()
        withExtendedLifetime((app, home, share, built.holder)) {}
        let found = try #require(paths.first { $0.coordinator == 3 }, "the search looked at Share#3: \(paths.map(summary))")
        return (found, built.expected, _typeName(type(of: built.holder), qualified: false))
    }

    /// A path's description, its middle left out when it is long.
    static func summary(_ path: RetainerPath) -> String {
        guard path.steps.count > 12 else { return path.description }
        var short = path
        short.steps = Array(path.steps.prefix(4)) + Array(path.steps.suffix(4))
        return "[\(path.steps.count) steps, middle left out] \(short.description)"
    }

    private func check(_ shape: Shape, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let (found, written, screen) = try Self.search(shape)
        // The holder is bound as Home#2's screen, so a chain that starts at it says whose screen it is.
        let expected = written.startingAt(screen: screen)
        let text = Self.summary(found)
        switch expected {
        case .path(let outcome, let description):
            #expect(found.outcome == outcome, "\(shape.name): \(text)", sourceLocation: sourceLocation)
            #expect(found.description == description, "\(shape.name)", sourceLocation: sourceLocation)
        case .chain(let first, let ending, let steps):
            #expect(found.outcome == .live, "\(shape.name): \(text)", sourceLocation: sourceLocation)
            let description = found.description
            #expect(description.hasPrefix(first + " › "), "\(shape.name): \(text)", sourceLocation: sourceLocation)
            #expect(description.hasSuffix(ending), "\(shape.name): \(text)", sourceLocation: sourceLocation)
            #expect(steps.contains(found.steps.count), "\(shape.name): \(found.steps.count) steps: \(text)", sourceLocation: sourceLocation)
        case .outcome(let outcome):
            #expect(found.outcome == outcome, "\(shape.name): \(text)", sourceLocation: sourceLocation)
            #expect(found.steps.isEmpty, "\(shape.name): \(text)", sourceLocation: sourceLocation)
        }
    }

    // MARK: - The tests, one per shape

    @Test func aGenericBoxHoldsItInAFieldOfItsParameterType() throws { try check(Shapes.genericBox) }
    @Test func aGenericBoxOfAGenericStructHoldingIt() throws { try check(Shapes.genericBoxOfAGenericStruct) }
    @Test func aGenericHolderWithAnArrayOfItsParameterType() throws { try check(Shapes.genericHolderArray) }
    @Test func aGenericHolderOfClosures() throws { try check(Shapes.genericHolderOfClosures) }
    @Test func aSubclassOfAGenericClassHoldsItInTheSuperclassField() throws { try check(Shapes.genericSuperclass) }
    @Test func aSubclassHoldsItInItsSuperclassField() throws { try check(Shapes.subclass) }
    @Test func aClosureMadeInAGenericFunctionCapturesIt() throws { try check(Shapes.genericFunctionCapturingTheObject) }
    @Test func aClosureMadeInAGenericFunctionCapturesAGenericStructHoldingIt() throws { try check(Shapes.genericFunctionCapturingAStruct) }
    @Test func aClosureMadeInAGenericMethodOfAGenericClassCapturesIt() throws { try check(Shapes.genericMethodCapturingTheObject) }
    @Test func aClosureMadeInAGenericClassCapturesAValueOfItsParameterType() throws { try check(Shapes.genericMethodCapturingAStruct) }
    @Test func aGenericClassWithACapturelessOnValueClosureAndAFieldHoldingIt() throws { try check(Shapes.genericOnValue) }
    #if canImport(OpenCombine)
    @Test func aPassthroughSubjectSinkStoredInASetOfCancellables() throws { try check(Shapes.combinePassthroughSink) }
    @Test func aCurrentValueSubjectSink() throws { try check(Shapes.combineCurrentValueSink) }
    @Test func aCurrentValueSubjectAssignOnIt() throws { try check(Shapes.combineCurrentValueAssign) }
    #endif
    @Test func cFunctionPointerPropertiesHoldNothing() throws { try check(Shapes.cFunctionPointers) }
    @Test func anyHoldingAStructThatHoldsIt() throws { try check(Shapes.anyHoldingAStruct) }
    @Test func anyHoldingIt() throws { try check(Shapes.anyHoldingAClass) }
    @Test func anyHoldingAnEnumWhosePayloadIsIt() throws { try check(Shapes.anyHoldingAnEnum) }
    @Test func anyHoldingAClosureThatCapturesIt() throws { try check(Shapes.anyHoldingAClosure) }
    @Test func anExistentialHoldingASmallStruct() throws { try check(Shapes.existentialSmallStruct) }
    @Test func anExistentialHoldingALargeBoxedStruct() throws { try check(Shapes.existentialLargeStruct) }
    @Test func anExistentialHoldingIt() throws { try check(Shapes.existentialClass) }
    @Test func aClassBoundExistentialHoldingIt() throws { try check(Shapes.classBoundExistential) }
    @Test func anyErrorHoldingAStructErrorThatHoldsIt() throws { try check(Shapes.anyError) }
    @Test func anyObjectHoldingIt() throws { try check(Shapes.anyObject) }
    @Test func metatypeFieldsHoldNothing() throws { try check(Shapes.metatypes) }
    @Test func aStringToAnyUserInfoHoldingAStructThatHoldsIt() throws { try check(Shapes.userInfo) }
    @Test func anAnyHashableToAnyUserInfo() throws { try check(Shapes.anyHashableUserInfo) }
    @Test func anArrayOfExistentials() throws { try check(Shapes.arrayOfExistentials) }
    @Test func anOptionalExistential() throws { try check(Shapes.optionalExistential) }
    @Test func anIndirectEnumLinkedList() throws { try check(Shapes.indirectList) }

    /// An indirect list 40 links deep nests the coordinator past the walker's depth: the search says its branch ended
    /// there, rather than nothing at all.
    @Test func aListDeeperThanTheWalkerGoesSaysWhereItStopped() throws {
        let shape = Shape(name: "deepIndirectList") { _, share in
            let holder = ListHolder()
            var list = Chain.node(share, next: .end)
            for _ in 0..<40 { list = .node(Coordinator(), next: list) }
            holder.list = list
            return Built(holder: holder, expected: .outcome(.unreachable))
        }
        let (found, _, _) = try Self.search(shape)
        #expect(found.outcome == .unreachable, "\(Self.summary(found))")
        #expect(found.reason?.contains("a value nested more than 48 levels deep in its holder") == true, "\(Self.summary(found))")
    }
    @Test func aMultiPayloadEnumWithItInTheSecondCase() throws { try check(Shapes.multiPayloadEnum) }
    @Test func anEnumPayloadWithLabels() throws { try check(Shapes.labelledPayload) }
    @Test func anEnumCaseWithAClosurePayload() throws { try check(Shapes.closurePayload) }
    @Test func aResultsSuccess() throws { try check(Shapes.resultSuccess) }
    @Test func aResultsFailureHoldingAnErrorThatHoldsIt() throws { try check(Shapes.resultFailure) }
    @Test func anUnlabelledTuple() throws { try check(Shapes.unlabelledTuple) }
    @Test func aLabelledTuple() throws { try check(Shapes.labelledTuple) }
    @Test func aNestedOptional() throws { try check(Shapes.nestedOptional) }
    @Test func structsInsideStructs() throws { try check(Shapes.nestedStructs) }
    @Test func heldByAnActorsProperty() throws { try check(Shapes.actor) }
    @Test func anUnownedUnsafeFieldToAFreedObjectIsNotFollowed() throws { try check(Shapes.danglingUnownedUnsafe) }
    @Test func keyPathsInFields() throws { try check(Shapes.keyPaths) }
    @Test func foundationValuesNextToTheHolder() throws { try check(Shapes.foundationValues) }
    @Test func heldOnlyByAFoundationCollectionIsUnreachable() throws { try check(Shapes.foundationCollection) }
    @Test func anNSObjectSubclassProperty() throws { try check(Shapes.nsObjectSubclass) }
    @Test func stringsNextToTheHolder() throws { try check(Shapes.strings) }
    @Test func aMillionIntsNextToTheHolder() throws { try check(Shapes.millionInts) }
    @Test func aMillionObjectsWithItLastInTheDefaultBudget() throws { try check(Shapes.millionObjectsDefaultBudget) }
    /// Whether the process runs under a sanitizer (`make test-address-sanitizer`, `test-thread-sanitizer` say so): there
    /// the two shapes that search hundreds of thousands of objects to the end would take minutes; the plain debug run
    /// has them.
    static let isSanitized = ProcessInfo.processInfo.environment["COORDLENS_SANITIZED"] != nil

    @Test(.disabled(if: isSanitized, "hundreds of thousands of objects under a sanitizer")) func aMillionObjectsWithItLastInABigBudget() throws {
        try check(Shapes.millionObjectsBigBudget)
    }
    @Test(.disabled(if: isSanitized, "hundreds of thousands of objects under a sanitizer")) func aHundredThousandDeepChainInABigBudget() throws {
        try check(Shapes.deepChainBigBudget)
    }
    @Test func aHundredThousandDeepChainInTheDefaultBudget() throws { try check(Shapes.deepChainDefaultBudget) }
    @Test func itHoldsItselfThroughAClosure() throws { try check(Shapes.closureCycle) }
    @Test func aDictionaryOfClosuresByObjectIdentifier() throws { try check(Shapes.objectIdentifierClosures) }
    @Test func aDictionaryWithIntKeys() throws { try check(Shapes.intKeys) }
    @Test func aDictionaryWithStringKeys() throws { try check(Shapes.stringKeys) }
    @Test func aDictionaryKeyThatHoldsIt() throws { try check(Shapes.keyHoldingIt) }
    @Test func aSetOfHashableBoxes() throws { try check(Shapes.setOfBoxes) }
    @Test func aContiguousArray() throws { try check(Shapes.contiguousArray) }
    @Test func aStructWithWeakAndStrongFieldsSideBySide() throws { try check(Shapes.weakBesideStrong) }
    @Test func aStructWithOnlyWeakAndUnownedFieldsToItIsUnreachable() throws { try check(Shapes.onlyWeakInAStruct) }
    @Test func weakAndUnownedCapturesAreUnreachable() throws { try check(Shapes.weakAndUnownedCaptures) }
    @Test func aCapturedVarBox() throws { try check(Shapes.capturedVar) }
    @Test func aClosureCapturingAClosureThatCapturesIt() throws { try check(Shapes.closureInClosure) }
    @Test func aClosureCapturingABoundMethodOfIt() throws { try check(Shapes.boundMethodInClosure) }

    /// Every shape, for a cross-check that builds them all (in the order of the tests above).
    static func allShapes() -> [Shape] {
        var shapes: [Shape] = [
            Shapes.genericBox, Shapes.genericBoxOfAGenericStruct, Shapes.genericHolderArray, Shapes.genericHolderOfClosures,
            Shapes.genericSuperclass, Shapes.subclass, Shapes.genericFunctionCapturingTheObject, Shapes.genericFunctionCapturingAStruct,
            Shapes.genericMethodCapturingTheObject, Shapes.genericMethodCapturingAStruct, Shapes.genericOnValue,
        ]
        #if canImport(OpenCombine)
        shapes += [Shapes.combinePassthroughSink, Shapes.combineCurrentValueSink, Shapes.combineCurrentValueAssign]
        #endif
        shapes += [
            Shapes.cFunctionPointers, Shapes.anyHoldingAStruct, Shapes.anyHoldingAClass, Shapes.anyHoldingAnEnum, Shapes.anyHoldingAClosure,
            Shapes.existentialSmallStruct, Shapes.existentialLargeStruct, Shapes.existentialClass, Shapes.classBoundExistential,
            Shapes.anyError, Shapes.anyObject, Shapes.metatypes, Shapes.userInfo, Shapes.anyHashableUserInfo, Shapes.arrayOfExistentials,
            Shapes.optionalExistential, Shapes.indirectList, Shapes.multiPayloadEnum, Shapes.labelledPayload, Shapes.closurePayload,
            Shapes.resultSuccess, Shapes.resultFailure, Shapes.unlabelledTuple, Shapes.labelledTuple, Shapes.nestedOptional,
            Shapes.nestedStructs, Shapes.actor, Shapes.danglingUnownedUnsafe, Shapes.keyPaths, Shapes.foundationValues,
            Shapes.foundationCollection, Shapes.nsObjectSubclass, Shapes.strings, Shapes.millionInts, Shapes.millionObjectsDefaultBudget,
            Shapes.millionObjectsBigBudget, Shapes.deepChainBigBudget, Shapes.deepChainDefaultBudget, Shapes.closureCycle,
            Shapes.objectIdentifierClosures, Shapes.intKeys, Shapes.stringKeys, Shapes.keyHoldingIt, Shapes.setOfBoxes,
            Shapes.contiguousArray, Shapes.weakBesideStrong, Shapes.onlyWeakInAStruct, Shapes.weakAndUnownedCaptures, Shapes.capturedVar,
            Shapes.closureInClosure, Shapes.boundMethodInClosure,
        ]
        return shapes
    }

    @Test func theZooHasAtLeast45ShapesWithUniqueNames() {
        let names = Self.allShapes().map(\.name)
        #expect(Set(names).count == names.count, "\(names)")
        #expect(names.count >= 45)
    }
}

// MARK: - The zoo's inhabitants

extension RetainerZooTests {
    protocol Flow {}
    protocol ClassFlow: AnyObject {}

    /// The retained coordinator and the living ones; its fields are used by the shapes that hang off a coordinator.
    final class Coordinator: Flow, ClassFlow, @unchecked Sendable {
        var title = ""
        var node: Node?
        var onFinish: (() -> Void)?
        func finish() {}
    }

    /// A screen that holds nothing, for shapes that hang off App#1 or hold nothing reachable.
    final class Screen {}

    /// A tiny object, many of them.
    final class Token {}

    final class Node {
        var next: Node?
        var payload: AnyObject?

        /// Frees a chain node by node: a deep chain freed from its head would recurse once per node.
        static func dismantle(_ head: Node?) {
            var next = head?.next
            head?.next = nil
            while let node = next {
                next = node.next
                node.next = nil
            }
        }
    }

    final class Box<T> {
        var value: T
        init(_ value: T) { self.value = value }
    }

    struct Wrapper<T> {
        var tag: Int
        var wrapped: T
    }

    final class Holder<T> {
        var items: [T] = []
    }

    class BaseBox<Value> {
        var value: Value
        init(_ value: Value) { self.value = value }
    }

    final class CoordinatorBox: BaseBox<Coordinator> {
        var note = "share"
    }

    class BaseController {
        var coordinator: Coordinator?
    }

    final class DetailController: BaseController {
        var detail = "detail"
    }

    final class Handlers {
        var action: (() -> Void)?
    }

    final class Store<Value> {
        var value: Value
        var onChange: (() -> Void)?
        init(_ value: Value) { self.value = value }

        /// A closure made in a generic method of a generic class: its context holds both generic parameters' metadata.
        func watch<Observer: AnyObject>(_ observer: Observer) {
            let current = value
            onChange = {
                _ = observer
                _ = current
            }
        }

        /// A closure capturing a value of the class's parameter type.
        func keep(_ kept: Value) {
            onChange = { _ = kept }
        }
    }

    final class Emitter<Output> {
        var onValue: ((Output) -> Void)?
        var owner: Coordinator?
    }

    /// A closure made in a generic function: its context holds the parameter's metadata and the value.
    static func makeAction<Value>(_ value: Value) -> () -> Void {
        { _ = value }
    }

    struct Ref: Flow {
        var tag: Int
        var coordinator: Coordinator
    }

    /// Too big for an existential's three inline words: boxed on the heap.
    struct LargeRef: Flow {
        var first = 1
        var second = 2
        var third = 3
        var coordinator: Coordinator
    }

    struct ShareFailed: Error {
        var coordinator: Coordinator
    }

    final class CCallbacks {
        var transform: @convention(c) (Int32) -> Int32 = { $0 + 1 }
        var release: (@convention(c) (UnsafeMutableRawPointer?) -> Void)? = { _ in }
        var coordinator: Coordinator?
    }

    final class AnyHolder {
        var value: Any
        init(_ value: Any) { self.value = value }
    }

    final class FlowHolder {
        var flow: any Flow
        init(_ flow: any Flow) { self.flow = flow }
    }

    final class ClassFlowHolder {
        var flow: any ClassFlow
        init(_ flow: any ClassFlow) { self.flow = flow }
    }

    final class ErrorHolder {
        var error: any Error
        init(_ error: any Error) { self.error = error }
    }

    final class ObjectHolder {
        var object: AnyObject
        init(_ object: AnyObject) { self.object = object }
    }

    final class MetatypeHolder {
        var type: Any.Type = Coordinator.self
        var types: [Any.Type] = [Int.self, Coordinator.self, String.self, (any Flow).self]
        var coordinatorType: Coordinator.Type = Coordinator.self
        var objectType: AnyObject.Type = Screen.self
        var coordinator: Coordinator?
    }

    final class UserInfoHolder {
        var userInfo: [String: Any] = [:]
    }

    final class NotificationInfoHolder {
        var userInfo: [AnyHashable: Any] = [:]
    }

    final class FlowsHolder {
        var flows: [any Flow] = []
    }

    final class OptionalFlowHolder {
        var flow: (any Flow)?
    }

    enum Chain {
        case end
        indirect case node(Coordinator, next: Chain)
    }

    final class ListHolder {
        var list: Chain = .end
    }

    enum Route {
        case home(Int)
        case share(Coordinator, animated: Bool)
        case settings(String)
        case web(URL)
    }

    final class RouteHolder {
        var route: Route = .home(0)
    }

    enum Presentation {
        case none
        case sheet(detents: Int, coordinator: Coordinator)
    }

    final class SheetHolder {
        var presentation: Presentation = .none
    }

    enum Action {
        case none
        case run(() -> Void)
    }

    final class ActionHolder {
        var action: Action = .none
    }

    final class SuccessHolder {
        var result: Result<Coordinator, any Error>
        init(_ result: Result<Coordinator, any Error>) { self.result = result }
    }

    final class FailureHolder {
        var result: Result<Int, any Error>
        init(_ result: Result<Int, any Error>) { self.result = result }
    }

    final class TupleHolder {
        var pair: (Int, Coordinator)
        init(_ pair: (Int, Coordinator)) { self.pair = pair }
    }

    final class LabelledTupleHolder {
        var labelled: (tag: Int, coordinator: Coordinator)
        init(_ labelled: (tag: Int, coordinator: Coordinator)) { self.labelled = labelled }
    }

    final class NestedOptionalHolder {
        var coordinator: Coordinator??
    }

    struct Presented {
        var animated: Bool
        var coordinator: Coordinator
    }

    struct State {
        var step: Int
        var presentation: Presented
    }

    final class StateHolder {
        var state: State
        init(_ state: State) { self.state = state }
    }

    actor Vault {
        var coordinator: Coordinator?
        init(_ coordinator: Coordinator) { self.coordinator = coordinator }
    }

    final class VaultHolder {
        let vault: Vault
        init(_ vault: Vault) { self.vault = vault }
    }

    final class DanglingHolder {
        unowned(unsafe) var stale: Coordinator
        var coordinator: Coordinator?
        init(stale: Coordinator) { self.stale = stale }
    }

    /// A coordinator freed as soon as the caller is done with it.
    static func freedCoordinator() -> Coordinator { Coordinator() }

    final class KeyPathHolder {
        var title: KeyPath<Coordinator, String> = \.title
        var node: AnyKeyPath = \Coordinator.node
        var onFinish: PartialKeyPath<Coordinator> = \.onFinish
        var coordinator: Coordinator?
    }

    final class FoundationValues {
        var date = Date()
        var url = URL(string: "https://example.com/share?from=home")!
        var data = Data(repeating: 7, count: 4096)
        var id = UUID()
        var coordinator: Coordinator?
    }

    final class LegacyList {
        let items = NSMutableArray()
    }

    final class LegacyController: NSObject {
        var coordinator: Coordinator?
    }

    final class Strings {
        var short = "ok"
        var long = String(repeating: "a coordinator held past its flow ", count: 8)
        var lines = ["one", String(repeating: "two ", count: 40), "three"]
        var coordinator: Coordinator?
    }

    final class MillionInts {
        var numbers = [Int](repeating: 7, count: 1_000_000)
        var coordinator: Coordinator?
    }

    final class MillionObjects {
        var objects: [AnyObject] = []
    }

    final class ClosureTable {
        var handlers: [ObjectIdentifier: () -> Void] = [:]
    }

    final class IntKeyed {
        var byTag: [Int: Coordinator] = [:]
    }

    final class StringKeyed {
        var byName: [String: Coordinator] = [:]
    }

    struct HashableBox: Hashable {
        var key: Int
        var coordinator: Coordinator
        static func == (left: Self, right: Self) -> Bool { left.key == right.key }
        func hash(into hasher: inout Hasher) { hasher.combine(key) }
    }

    final class KeyedByBox {
        var counts: [HashableBox: Int] = [:]
    }

    final class HashableSet {
        var boxes: Set<HashableBox> = []
    }

    final class ContiguousHolder {
        var items: ContiguousArray<Coordinator> = []
    }

    struct Links {
        weak var weakOwner: Coordinator?
        unowned var unownedOwner: Coordinator
        unowned(unsafe) var unsafeOwner: Coordinator
        var strongOwner: Coordinator?
    }

    final class LinksHolder {
        var links: Links
        init(_ links: Links) { self.links = links }
    }

    #if canImport(OpenCombine)
    /// Keeps its subscriptions, not the subjects: a subject lives as long as a subscription to it, so the only way from
    /// the model to the subscriber is through `cancellables`.
    final class ViewModel {
        var cancellables = Set<AnyCancellable>()
    }
    #endif
}

// MARK: - The shapes

extension RetainerZooTests {
    enum Shapes {
        static var genericBox: Shape {
            Shape(name: "genericBox") { _, share in
                Built(holder: Box(share), expected: .path(.live, "Box<Coordinator>.value › Coordinator#3"))
            }
        }

        static var genericBoxOfAGenericStruct: Shape {
            Shape(name: "genericBoxOfAGenericStruct") { _, share in
                Built(
                    holder: Box(Wrapper(tag: 1, wrapped: share)),
                    expected: .path(.live, "Box<Wrapper<Coordinator>>.value.wrapped › Coordinator#3"))
            }
        }

        static var genericHolderArray: Shape {
            Shape(name: "genericHolderArray") { _, share in
                let holder = Holder<Coordinator>()
                holder.items = [Coordinator(), share, Coordinator()]
                return Built(holder: holder, expected: .path(.live, "Holder<Coordinator>.items[1] (element) › Coordinator#3"))
            }
        }

        static var genericHolderOfClosures: Shape {
            Shape(name: "genericHolderOfClosures") { _, share in
                let holder = Holder<() -> Void>()
                let tag = 7
                holder.items = [
                    {},
                    {
                        share.finish()
                        _ = tag
                    },
                ]
                return Built(
                    holder: holder,
                    expected: .path(
                        .live,
                        "Holder<() -> ()>.items[1] (captured by closure #2 in closure #1 in static RetainerZooTests.Shapes.genericHolderOfClosures.getter) › Coordinator#3"
                    ))
            }
        }

        static var genericSuperclass: Shape {
            Shape(name: "genericSuperclass") { _, share in
                Built(holder: CoordinatorBox(share), expected: .path(.live, "CoordinatorBox.value › Coordinator#3"))
            }
        }

        static var subclass: Shape {
            Shape(name: "subclass") { _, share in
                let controller = DetailController()
                controller.coordinator = share
                return Built(holder: controller, expected: .path(.live, "DetailController.coordinator › Coordinator#3"))
            }
        }

        static var genericFunctionCapturingTheObject: Shape {
            Shape(name: "genericFunctionCapturingTheObject") { _, share in
                let handlers = Handlers()
                handlers.action = makeAction(share)
                // The context holds the parameter's metadata as well: it is not the object itself.
                return Built(
                    holder: handlers,
                    expected: .path(.live, "Handlers.action (captured by closure #1 in static RetainerZooTests.makeAction(_:)) › Coordinator#3"))
            }
        }

        static var genericFunctionCapturingAStruct: Shape {
            Shape(name: "genericFunctionCapturingAStruct") { _, share in
                let handlers = Handlers()
                handlers.action = makeAction(Ref(tag: 1, coordinator: share))
                return Built(
                    holder: handlers,
                    expected: .path(.live, "Handlers.action.coordinator (captured by closure #1 in static RetainerZooTests.makeAction(_:)) › Coordinator#3"))
            }
        }

        static var genericMethodCapturingTheObject: Shape {
            Shape(name: "genericMethodCapturingTheObject") { _, share in
                let store = Store(1)
                store.watch(share)
                return Built(
                    holder: store, expected: .path(.live, "Store<Int>.onChange (captured by closure #1 in RetainerZooTests.Store.watch(_:)) › Coordinator#3"))
            }
        }

        static var genericMethodCapturingAStruct: Shape {
            Shape(name: "genericMethodCapturingAStruct") { _, share in
                let store = Store(Ref(tag: 0, coordinator: Coordinator()))
                store.keep(Ref(tag: 1, coordinator: share))
                return Built(
                    holder: store,
                    expected: .path(.live, "Store<Ref>.onChange.coordinator (captured by closure #1 in RetainerZooTests.Store.keep(_:)) › Coordinator#3"))
            }
        }

        static var genericOnValue: Shape {
            Shape(name: "genericOnValue") { _, share in
                let emitter = Emitter<Int>()
                emitter.onValue = { _ in }
                emitter.owner = share
                return Built(holder: emitter, expected: .path(.live, "Emitter<Int>.owner › Coordinator#3"))
            }
        }

        #if canImport(OpenCombine)
        static var combinePassthroughSink: Shape {
            Shape(name: "combinePassthroughSink") { _, share in
                let model = ViewModel()
                let events = PassthroughSubject<Int, Never>()
                let tag = 7
                events
                    .sink { value in
                        share.finish()
                        _ = value + tag
                    }
                    .store(in: &model.cancellables)
                events.send(1)
                return Built(
                    holder: model,
                    expected: .chain(
                        first: "ViewModel.cancellables[0] (element)",
                        ending:
                            ".receiveValue (captured by closure #1 in closure #1 in static RetainerZooTests.Shapes.combinePassthroughSink.getter) › Coordinator#3",
                        steps: 3...8))
            }
        }

        static var combineCurrentValueSink: Shape {
            Shape(name: "combineCurrentValueSink") { _, share in
                let model = ViewModel()
                let title = CurrentValueSubject<String, Never>("Share")
                let tag = 7
                title
                    .sink { value in
                        share.title = value
                        _ = tag
                    }
                    .store(in: &model.cancellables)
                return Built(
                    holder: model,
                    expected: .chain(
                        first: "ViewModel.cancellables[0] (element)",
                        ending:
                            ".receiveValue (captured by closure #1 in closure #1 in static RetainerZooTests.Shapes.combineCurrentValueSink.getter) › Coordinator#3",
                        steps: 3...8))
            }
        }

        static var combineCurrentValueAssign: Shape {
            Shape(name: "combineCurrentValueAssign") { _, share in
                let model = ViewModel()
                let title = CurrentValueSubject<String, Never>("Share")
                title.assign(to: \.title, on: share).store(in: &model.cancellables)
                return Built(
                    holder: model, expected: .chain(first: "ViewModel.cancellables[0] (element)", ending: ".object › Coordinator#3", steps: 2...8))
            }
        }
        #endif

        static var cFunctionPointers: Shape {
            Shape(name: "cFunctionPointers") { _, share in
                let callbacks = CCallbacks()
                callbacks.coordinator = share
                return Built(holder: callbacks, expected: .path(.live, "CCallbacks.coordinator › Coordinator#3"))
            }
        }

        static var anyHoldingAStruct: Shape {
            Shape(name: "anyHoldingAStruct") { _, share in
                Built(holder: AnyHolder(Ref(tag: 1, coordinator: share)), expected: .path(.live, "AnyHolder.value.coordinator › Coordinator#3"))
            }
        }

        static var anyHoldingAClass: Shape {
            Shape(name: "anyHoldingAClass") { _, share in
                Built(holder: AnyHolder(share), expected: .path(.live, "AnyHolder.value › Coordinator#3"))
            }
        }

        static var anyHoldingAnEnum: Shape {
            Shape(name: "anyHoldingAnEnum") { _, share in
                Built(holder: AnyHolder(Route.share(share, animated: true)), expected: .path(.live, "AnyHolder.value.share › Coordinator#3"))
            }
        }

        static var anyHoldingAClosure: Shape {
            Shape(name: "anyHoldingAClosure") { _, share in
                let tag = 7
                let action: () -> Void = {
                    share.finish()
                    _ = tag
                }
                return Built(
                    holder: AnyHolder(action),
                    expected: .path(
                        .live,
                        "AnyHolder.value (captured by closure #1 in closure #1 in static RetainerZooTests.Shapes.anyHoldingAClosure.getter) › Coordinator#3"))
            }
        }

        static var existentialSmallStruct: Shape {
            Shape(name: "existentialSmallStruct") { _, share in
                Built(holder: FlowHolder(Ref(tag: 1, coordinator: share)), expected: .path(.live, "FlowHolder.flow.coordinator › Coordinator#3"))
            }
        }

        static var existentialLargeStruct: Shape {
            Shape(name: "existentialLargeStruct") { _, share in
                Built(holder: FlowHolder(LargeRef(coordinator: share)), expected: .path(.live, "FlowHolder.flow.coordinator › Coordinator#3"))
            }
        }

        static var existentialClass: Shape {
            Shape(name: "existentialClass") { _, share in
                Built(holder: FlowHolder(share), expected: .path(.live, "FlowHolder.flow › Coordinator#3"))
            }
        }

        static var classBoundExistential: Shape {
            Shape(name: "classBoundExistential") { _, share in
                Built(holder: ClassFlowHolder(share), expected: .path(.live, "ClassFlowHolder.flow › Coordinator#3"))
            }
        }

        static var anyError: Shape {
            Shape(name: "anyError") { _, share in
                Built(holder: ErrorHolder(ShareFailed(coordinator: share)), expected: .path(.live, "ErrorHolder.error.coordinator › Coordinator#3"))
            }
        }

        static var anyObject: Shape {
            Shape(name: "anyObject") { _, share in
                Built(holder: ObjectHolder(share), expected: .path(.live, "ObjectHolder.object › Coordinator#3"))
            }
        }

        static var metatypes: Shape {
            Shape(name: "metatypes") { _, share in
                let holder = MetatypeHolder()
                holder.coordinator = share
                return Built(holder: holder, expected: .path(.live, "MetatypeHolder.coordinator › Coordinator#3"))
            }
        }

        static var userInfo: Shape {
            Shape(name: "userInfo") { _, share in
                let holder = UserInfoHolder()
                holder.userInfo = [
                    "title": "Share", "count": 3, "when": Date(), "flow": Ref(tag: 1, coordinator: share), "tags": ["a", "b"],
                ]
                return Built(holder: holder, expected: .path(.live, #"UserInfoHolder.userInfo["flow"].coordinator (element) › Coordinator#3"#))
            }
        }

        static var anyHashableUserInfo: Shape {
            Shape(name: "anyHashableUserInfo") { _, share in
                let holder = NotificationInfoHolder()
                holder.userInfo = ["title": "Share", 1: 2, "flow": Ref(tag: 1, coordinator: share)]
                return Built(holder: holder, expected: .path(.live, "NotificationInfoHolder.userInfo[AnyHashable].coordinator (element) › Coordinator#3"))
            }
        }

        static var arrayOfExistentials: Shape {
            Shape(name: "arrayOfExistentials") { _, share in
                let holder = FlowsHolder()
                holder.flows = [Ref(tag: 0, coordinator: Coordinator()), share, LargeRef(coordinator: Coordinator())]
                return Built(holder: holder, expected: .path(.live, "FlowsHolder.flows[1] (element) › Coordinator#3"))
            }
        }

        static var optionalExistential: Shape {
            Shape(name: "optionalExistential") { _, share in
                let holder = OptionalFlowHolder()
                holder.flow = Ref(tag: 1, coordinator: share)
                return Built(holder: holder, expected: .path(.live, "OptionalFlowHolder.flow.coordinator › Coordinator#3"))
            }
        }

        static var indirectList: Shape {
            Shape(name: "indirectList") { _, share in
                let holder = ListHolder()
                holder.list = .node(Coordinator(), next: .node(Coordinator(), next: .node(share, next: .end)))
                return Built(holder: holder, expected: .path(.live, "ListHolder.list.node.next.node.next.node › Coordinator#3"))
            }
        }

        static var multiPayloadEnum: Shape {
            Shape(name: "multiPayloadEnum") { _, share in
                let holder = RouteHolder()
                holder.route = .share(share, animated: true)
                return Built(holder: holder, expected: .path(.live, "RouteHolder.route.share › Coordinator#3"))
            }
        }

        static var labelledPayload: Shape {
            Shape(name: "labelledPayload") { _, share in
                let holder = SheetHolder()
                holder.presentation = .sheet(detents: 2, coordinator: share)
                return Built(holder: holder, expected: .path(.live, "SheetHolder.presentation.sheet.coordinator › Coordinator#3"))
            }
        }

        static var closurePayload: Shape {
            Shape(name: "closurePayload") { _, share in
                let holder = ActionHolder()
                let tag = 7
                holder.action = .run {
                    share.finish()
                    _ = tag
                }
                return Built(
                    holder: holder,
                    expected: .path(
                        .live,
                        "ActionHolder.action.run (captured by closure #1 in closure #1 in static RetainerZooTests.Shapes.closurePayload.getter) › Coordinator#3"
                    ))
            }
        }

        static var resultSuccess: Shape {
            Shape(name: "resultSuccess") { _, share in
                Built(holder: SuccessHolder(.success(share)), expected: .path(.live, "SuccessHolder.result.success › Coordinator#3"))
            }
        }

        static var resultFailure: Shape {
            Shape(name: "resultFailure") { _, share in
                Built(
                    holder: FailureHolder(.failure(ShareFailed(coordinator: share))),
                    expected: .path(.live, "FailureHolder.result.failure.coordinator › Coordinator#3"))
            }
        }

        static var unlabelledTuple: Shape {
            Shape(name: "unlabelledTuple") { _, share in
                Built(holder: TupleHolder((1, share)), expected: .path(.live, "TupleHolder.pair › Coordinator#3"))
            }
        }

        static var labelledTuple: Shape {
            Shape(name: "labelledTuple") { _, share in
                Built(
                    holder: LabelledTupleHolder((tag: 1, coordinator: share)),
                    expected: .path(.live, "LabelledTupleHolder.labelled.coordinator › Coordinator#3"))
            }
        }

        static var nestedOptional: Shape {
            Shape(name: "nestedOptional") { _, share in
                let holder = NestedOptionalHolder()
                holder.coordinator = .some(.some(share))
                return Built(holder: holder, expected: .path(.live, "NestedOptionalHolder.coordinator › Coordinator#3"))
            }
        }

        static var nestedStructs: Shape {
            Shape(name: "nestedStructs") { _, share in
                Built(
                    holder: StateHolder(State(step: 2, presentation: Presented(animated: true, coordinator: share))),
                    expected: .path(.live, "StateHolder.state.presentation.coordinator › Coordinator#3"))
            }
        }

        static var actor: Shape {
            Shape(name: "actor") { _, share in
                // An actor's stored properties are read as a class's (its executor may change them meanwhile, as any
                // thread may change any object's).
                Built(holder: VaultHolder(Vault(share)), expected: .path(.live, "VaultHolder.vault › Vault.coordinator › Coordinator#3"))
            }
        }

        static var danglingUnownedUnsafe: Shape {
            Shape(name: "danglingUnownedUnsafe") { _, share in
                let holder = DanglingHolder(stale: freedCoordinator())
                holder.coordinator = share
                return Built(holder: holder, expected: .path(.live, "DanglingHolder.coordinator › Coordinator#3"))
            }
        }

        static var keyPaths: Shape {
            Shape(name: "keyPaths") { _, share in
                let holder = KeyPathHolder()
                holder.coordinator = share
                return Built(holder: holder, expected: .path(.live, "KeyPathHolder.coordinator › Coordinator#3"))
            }
        }

        static var foundationValues: Shape {
            Shape(name: "foundationValues") { _, share in
                let holder = FoundationValues()
                holder.coordinator = share
                return Built(holder: holder, expected: .path(.live, "FoundationValues.coordinator › Coordinator#3"))
            }
        }

        static var foundationCollection: Shape {
            Shape(name: "foundationCollection") { _, share in
                let holder = LegacyList()
                holder.items.add(share)
                // Foundation's own classes hold no app objects to the search: the branch ends there.
                return Built(holder: holder, expected: .outcome(.unreachable))
            }
        }

        static var nsObjectSubclass: Shape {
            Shape(name: "nsObjectSubclass") { _, share in
                let controller = LegacyController()
                controller.coordinator = share
                return Built(holder: controller, expected: .path(.live, "LegacyController.coordinator › Coordinator#3"))
            }
        }

        static var strings: Shape {
            Shape(name: "strings") { _, share in
                let holder = Strings()
                holder.coordinator = share
                return Built(holder: holder, expected: .path(.live, "Strings.coordinator › Coordinator#3"))
            }
        }

        static var millionInts: Shape {
            Shape(name: "millionInts") { _, share in
                let holder = MillionInts()
                holder.coordinator = share
                return Built(holder: holder, expected: .path(.live, "MillionInts.coordinator › Coordinator#3"))
            }
        }

        static func millionObjects(_ share: Coordinator) -> MillionObjects {
            let holder = MillionObjects()
            holder.objects.reserveCapacity(1_000_000)
            for _ in 0..<999_999 { holder.objects.append(Token()) }
            holder.objects.append(share)
            return holder
        }

        static var millionObjectsDefaultBudget: Shape {
            Shape(name: "millionObjectsDefaultBudget") { _, share in
                // 10,000 objects by default: the budget ends the search long before the last element.
                Built(holder: millionObjects(share), expected: .outcome(.budget))
            }
        }

        static var millionObjectsBigBudget: Shape {
            Shape(name: "millionObjectsBigBudget", options: RetainerSearchOptions(maximumObjects: 2_000_000, timeBudget: 10, totalTimeBudget: 60)) { _, share in
                Built(holder: millionObjects(share), expected: .path(.live, "MillionObjects.objects[999999] (element) › Coordinator#3"))
            }
        }

        /// App#1 → 100,000 nodes → Share#3: 100,001 steps.
        static func deepChain(from app: Coordinator, to share: Coordinator) -> Built {
            let head = Node()
            var last = head
            for _ in 1..<100_000 {
                let node = Node()
                last.next = node
                last = node
            }
            last.payload = share
            app.node = head
            return Built(
                holder: Screen(), expected: .chain(first: "Coordinator#1.node", ending: "Node.payload › Coordinator#3", steps: 100_001...100_001)
            ) {
                Node.dismantle(app.node)
                app.node = nil
            }
        }

        static var deepChainBigBudget: Shape {
            Shape(name: "deepChainBigBudget", options: RetainerSearchOptions(maximumObjects: 200_000, timeBudget: 10, totalTimeBudget: 60), make: deepChain)
        }

        static var deepChainDefaultBudget: Shape {
            Shape(name: "deepChainDefaultBudget") { app, share in
                var built = deepChain(from: app, to: share)
                built.expected = .outcome(.budget)
                return built
            }
        }

        static var closureCycle: Shape {
            Shape(name: "closureCycle") { _, share in
                let tag = 7
                share.onFinish = {
                    share.finish()
                    _ = tag
                }
                return Built(
                    holder: Screen(),
                    expected: .path(
                        .cycle,
                        "Coordinator#3.onFinish (captured by closure #1 in closure #1 in static RetainerZooTests.Shapes.closureCycle.getter) › Coordinator#3")
                ) {
                    share.onFinish = nil
                }
            }
        }

        static var objectIdentifierClosures: Shape {
            Shape(name: "objectIdentifierClosures") { _, share in
                let table = ClosureTable()
                let tag = 7
                table.handlers[ObjectIdentifier(Screen.self)] = {}
                table.handlers[ObjectIdentifier(share)] = {
                    share.finish()
                    _ = tag
                }
                table.handlers[ObjectIdentifier(Token.self)] = { _ = tag }
                return Built(
                    holder: table,
                    expected: .path(
                        .live,
                        "ClosureTable.handlers[ObjectIdentifier] (captured by closure #2 in closure #1 in static RetainerZooTests.Shapes.objectIdentifierClosures.getter) › Coordinator#3"
                    ))
            }
        }

        static var intKeys: Shape {
            Shape(name: "intKeys") { _, share in
                let holder = IntKeyed()
                holder.byTag = [1: Coordinator(), 42: share, 7: Coordinator()]
                return Built(holder: holder, expected: .path(.live, "IntKeyed.byTag[42] (element) › Coordinator#3"))
            }
        }

        static var stringKeys: Shape {
            Shape(name: "stringKeys") { _, share in
                let holder = StringKeyed()
                holder.byName = ["home": Coordinator(), "share": share]
                return Built(holder: holder, expected: .path(.live, #"StringKeyed.byName["share"] (element) › Coordinator#3"#))
            }
        }

        static var keyHoldingIt: Shape {
            Shape(name: "keyHoldingIt") { _, share in
                let holder = KeyedByBox()
                holder.counts = [HashableBox(key: 1, coordinator: share): 1]
                return Built(holder: holder, expected: .path(.live, "KeyedByBox.counts[HashableBox].coordinator (element) › Coordinator#3"))
            }
        }

        static var setOfBoxes: Shape {
            Shape(name: "setOfBoxes") { _, share in
                let holder = HashableSet()
                holder.boxes = Set((0..<5).map { HashableBox(key: $0, coordinator: $0 == 3 ? share : Coordinator()) })
                // Storage order is iteration order, which the process's hash seed decides.
                let index = holder.boxes.enumerated().first { $0.element.coordinator === share }!.offset
                return Built(holder: holder, expected: .path(.live, "HashableSet.boxes[\(index)].coordinator (element) › Coordinator#3"))
            }
        }

        static var contiguousArray: Shape {
            Shape(name: "contiguousArray") { _, share in
                let holder = ContiguousHolder()
                holder.items = [Coordinator(), Coordinator(), share]
                return Built(holder: holder, expected: .path(.live, "ContiguousHolder.items[2] (element) › Coordinator#3"))
            }
        }

        static var weakBesideStrong: Shape {
            Shape(name: "weakBesideStrong") { _, share in
                let links = Links(weakOwner: share, unownedOwner: share, unsafeOwner: share, strongOwner: share)
                return Built(holder: LinksHolder(links), expected: .path(.live, "LinksHolder.links.strongOwner › Coordinator#3"))
            }
        }

        static var onlyWeakInAStruct: Shape {
            Shape(name: "onlyWeakInAStruct") { _, share in
                let links = Links(weakOwner: share, unownedOwner: share, unsafeOwner: share, strongOwner: Coordinator())
                return Built(holder: LinksHolder(links), expected: .outcome(.unreachable))
            }
        }

        static var weakAndUnownedCaptures: Shape {
            Shape(name: "weakAndUnownedCaptures") { _, share in
                let handlers = Handlers()
                let tag = 7
                handlers.action = { [weak share, unowned owner = share] in
                    share?.finish()
                    owner.finish()
                    _ = tag
                }
                return Built(holder: handlers, expected: .outcome(.unreachable))
            }
        }

        static var capturedVar: Shape {
            Shape(name: "capturedVar") { _, share in
                let handlers = Handlers()
                var current: Coordinator? = share
                let tag = 7
                handlers.action = {
                    current?.finish()
                    current = nil
                    _ = tag
                }
                return Built(
                    holder: handlers,
                    expected: .path(
                        .live, "Handlers.action (var captured by closure #1 in closure #1 in static RetainerZooTests.Shapes.capturedVar.getter) › Coordinator#3"
                    ))
            }
        }

        static var closureInClosure: Shape {
            Shape(name: "closureInClosure") { _, share in
                let handlers = Handlers()
                let tag = 7
                let inner: () -> Void = {
                    share.finish()
                    _ = tag
                }
                let other = 3
                handlers.action = {
                    inner()
                    _ = other
                }
                return Built(
                    holder: handlers,
                    expected: .path(
                        .live,
                        "Handlers.action (captured by closure #2 in closure #1 in static RetainerZooTests.Shapes.closureInClosure.getter) › Coordinator#3"))
            }
        }

        static var boundMethodInClosure: Shape {
            Shape(name: "boundMethodInClosure") { _, share in
                let handlers = Handlers()
                let inner = share.finish
                let other = 3
                handlers.action = {
                    inner()
                    _ = other
                }
                // The inner closure's context is the object itself.
                return Built(
                    holder: handlers,
                    expected: .path(
                        .live, "Handlers.action (closure #1 in closure #1 in static RetainerZooTests.Shapes.boundMethodInClosure.getter) › Coordinator#3"))
            }
        }
    }
}
#endif
