#if RetainerSearch && canImport(Glibc)
// The search's own tests: a build without the RetainerSearch trait has no search to test.
import CoordinatorTrace
import Dispatch
import Foundation
import Observation
import Testing

/// What a modern Swift app's leaks are held by: a stored task, a work item, an operation
/// waiting on its dependency, an actor's property, an `@Observable` model, a singleton's dictionary.
/// In a process of their own in `make test`, as RetainerRootsTests are (the search back reads the whole heap).
@Suite struct RetainerModernRootsTests {
    typealias Coordinator = RetainerSearchTests.Coordinator
    let zoo = RetainerSearchTests()

    func search(
        timeBudget: Double = 0.25, _ hold: (_ app: Coordinator, _ home: Coordinator, _ homeScreen: RetainerSearchTests.Screen, _ share: Coordinator) -> Void
    ) throws -> RetainerPath {
        try zoo.search(timeBudget: timeBudget, hold)
    }

    func searches(
        _ hold: (_ app: Coordinator, _ home: Coordinator, _ homeScreen: RetainerSearchTests.Screen, _ share: Coordinator) -> Void
    ) throws -> [RetainerPath] {
        try zoo.searches(hold)
    }

    /// A task kept in a living coordinator's property, running a loop that never ends: the runtime holds a running or
    /// suspended task whoever keeps its handle, so the task is the root, named by the closure it runs.
    @Test func aStoredTaskIsNamedByTheClosureItRuns() async throws {
        let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
        defer { continuation.finish() }
        let found = try await RetainerRootsTests.onAThreadOfItsOwn {
            try self.search(timeBudget: RetainerRootsTests.backwardBudget) { _, home, _, share in
                let held = Unchecked(share)
                let started = DispatchSemaphore(value: 0)
                home.task = Task {
                    started.signal()
                    for await _ in stream { held.value.finish() }
                }
                started.wait()
            }
        }
        guard RetainerRootsTests.heapIsGlibcs else { return }
        #expect(found.outcome == .live, "\(found)")
        #expect(
            found.description
                == "a Task running closure #1 in closure #1 in closure #1 in RetainerModernRootsTests.aStoredTaskIsNamedByTheClosureItRuns()"
                + " (capture) › Coordinator#3",
            "\(found)")
    }

    /// A `DispatchWorkItem` in a living coordinator's property: Dispatch keeps the closure as a block, which the walk
    /// forward does not read; back from the leak the chain reaches the living coordinator, and ends there. (It once
    /// went on past it, to a word of the test runner's that held the coordinator's address, and named that a root.)
    @Test func aStoredWorkItemIsHeldByItsLivingCoordinator() throws {
        let found = try searches { _, home, _, share in
            let held = Unchecked(share)
            home.work = DispatchWorkItem { held.value.finish() }
        }
        guard RetainerRootsTests.heapIsGlibcs else { return }
        let block = "a block (a closure passed to Dispatch or C)"
        RetainerSearchTests.expectRootedOrShort(
            found, "Coordinator#2.work › DispatchWorkItem._block › \(block) › \(block) › Coordinator#3",
            orHeldBy: "held by \(block) › Coordinator#3")
    }

    /// An operation that waits on a dependency that never runs: its block holds the coordinator, and the operation is
    /// kept by the dependency it waits on (and by its queue).
    @Test func anOperationWaitingOnItsDependencyHoldsItThroughItsBlock() throws {
        let found = try searches { _, _, _, share in
            let held = Unchecked(share)
            let operation = BlockOperation { held.value.finish() }
            operation.addDependency(ModernRoots.never)
            ModernRoots.queue.addOperation(operation)
        }
        guard RetainerRootsTests.heapIsGlibcs else { return }
        // The queue keeps its operations by unbalanced retains (Foundation's `Unmanaged` links), which no field says,
        // so the operation is where the chain is sure to go; the dependency's set of waiting operations may lead on.
        #expect(found.contains { $0.description.contains("BlockOperation._block › Coordinator#3") }, "\(found)")
        for path in found where path.outcome == .live {
            #expect(path.description.hasPrefix("static ModernRoots.never › BlockOperation.__downDependencies › "), "a root that is not the holder: \(path)")
        }
    }

    /// A ManagedBuffer's elements follow its header in the same block, as Deque keeps its elements: the walk forward does
    /// not know how many are in use, so the chain comes back from the leak, through the element (alone, to the static;
    /// beside every suite, at times only to the element).
    @Test func aManagedBuffersElementHoldsIt() throws {
        let found = try searches { _, _, _, share in
            let buffer = FlowBuffer.create(minimumCapacity: 2) { _ in 2 } as! FlowBuffer
            buffer.withUnsafeMutablePointerToElements {
                $0.initialize(to: nil)
                ($0 + 1).initialize(to: share)
            }
            LibraryValues.buffer.value = buffer
        }
        guard RetainerRootsTests.heapIsGlibcs else { return }
        RetainerSearchTests.expectRootedOrShort(
            found, "static LibraryValues.buffer › StaticBox<Optional<FlowBuffer>>.value › FlowBuffer.element (element) › Coordinator#3",
            orHeldBy: "held by FlowBuffer.element (element) › Coordinator#3")
    }

    /// An actor's stored property, the actor kept by a singleton.
    @Test func anActorsPropertyHoldsIt() throws {
        let found = try search { _, _, _, share in
            let kept = DispatchSemaphore(value: 0)
            ModernRoots.store.keep(Unchecked(share)) { kept.signal() }
            kept.wait()
        }
        #expect(found.outcome == .live, "\(found)")
        #expect(found.description == "static ModernRoots.store › FlowStore.flows[0] (element) › Coordinator#3", "\(found)")
    }

    /// An `@Observable` model's property, named as the source spells it (the macro keeps it in `_coordinator`).
    @Test func anObservableModelsPropertyHoldsIt() throws {
        let found = try search { _, _, _, share in ModernRoots.model.coordinator = share }
        #expect(found.outcome == .live, "\(found)")
        #expect(found.description == "static ModernRoots.model › FlowModel.coordinator › Coordinator#3", "\(found)")
    }

    /// A singleton's dictionary, the `static let shared` an app's environment is.
    @Test func aSingletonsDictionaryHoldsIt() throws {
        let found = try search { _, _, _, share in AppEnvironment.shared.flows["checkout"] = share }
        #expect(found.outcome == .live, "\(found)")
        #expect(found.description.hasPrefix("static AppEnvironment.shared › AppEnvironment.flows[String#"), "\(found)")
        #expect(found.description.hasSuffix("] (element) › Coordinator#3"), "\(found)")
    }
}

extension RetainerSearchTests {
    /// Three searches of the same shape, each its own session: the backward search reads a heap that the test process's
    /// other suites change as it walks, so each must say nothing false however far it got.
    func searches(
        _ hold: (_ app: Coordinator, _ home: Coordinator, _ homeScreen: Screen, _ share: Coordinator) -> Void
    ) throws -> [RetainerPath] {
        try (0..<3).map { _ in try search(timeBudget: RetainerRootsTests.backwardBudget, hold) }
    }

    /// Each of `found` is the whole chain `expected`, or stops short of a root and says how far back it saw
    /// (`orHeldBy`): none names another root. (Which one a search ends with depends on the heap the other suites
    /// change meanwhile: alone, the whole chain; beside every suite, at times only the first holders.)
    static func expectRootedOrShort(
        _ found: [RetainerPath], _ expected: String, orHeldBy partial: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        for path in found where !(path.outcome == .live && path.description == expected) {
            #expect(path.outcome == .unreachable && path.description.contains(partial), "\(path)", sourceLocation: sourceLocation)
        }
    }
}

/// Roots of the modern zoo, each reachable from no coordinator or screen.
enum ModernRoots {
    static let queue = OperationQueue()
    /// An operation never started, that the zoo's operations wait for.
    static let never = BlockOperation {}
    static let store = FlowStore()
    nonisolated(unsafe) static let model = FlowModel()
}

actor FlowStore {
    var flows: [AnyObject] = []

    /// Keeps `object` on the actor's executor, then calls `done`.
    nonisolated func keep(_ object: Unchecked<RetainerSearchTests.Coordinator>, then done: @escaping @Sendable () -> Void) {
        Task {
            await self.append(object)
            done()
        }
    }

    private func append(_ object: Unchecked<RetainerSearchTests.Coordinator>) { flows.append(object.value) }
}

@Observable final class FlowModel {
    var coordinator: AnyObject?
}

final class AppEnvironment: @unchecked Sendable {
    static let shared = AppEnvironment()
    var flows: [String: AnyObject] = [:]
}
#endif
