#if RetainerSearch && canImport(Glibc)
// The search's own tests: a build without the RetainerSearch trait has no search to test.
import CoordinatorTrace
import Dispatch
import Foundation
import Testing

/// Leaks that no path from a living coordinator, a screen, a global or another leak reaches: held by a task, a timer,
/// an observer, a Dispatch handler, or by nothing (an unbalanced retain). The search goes back from the leak through
/// the memory that holds its address; it names the root where it can, and where it cannot it says what it found,
/// never a holder it did not see.
///
/// The search back reads the whole heap: beside every suite of the package in one process that was 2.7 GB that 600
/// other tests change as it reads (115 s a search, and at times a chain cut short), so `make test` runs these suites in
/// a process of their own, after the rest, as it runs the load suites.
@Suite struct RetainerRootsTests {
    typealias Coordinator = RetainerSearchTests.Coordinator

    /// The zoo's search: a living app, home and its screen, and `Share#3` that `hold` keeps.
    func search(
        timeBudget: Double = 0.25, _ hold: (_ app: Coordinator, _ home: Coordinator, _ homeScreen: RetainerSearchTests.Screen, _ share: Coordinator) -> Void
    ) throws -> RetainerPath {
        try RetainerSearchTests().search(timeBudget: timeBudget, hold)
    }

    @Test func aTaskAwaitingAStreamThatNeverEndsHoldsIt() async throws {
        let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
        defer { continuation.finish() }
        // The search starts once the task has run: its frames then hold the closure's context too, and the task keeps
        // it beside the closure's entry point, which is the task's capture whether it has started or not. It waits
        // for the task on a thread of its own, so the task has a thread of the cooperative pool to run on.
        let found = try await Self.onAThreadOfItsOwn {
            try self.search(timeBudget: Self.backwardBudget) { _, _, _, share in
                let held = Unchecked(share)
                let started = DispatchSemaphore(value: 0)
                Task {
                    started.signal()
                    for await _ in stream { held.value.finish() }
                }
                started.wait()
            }
        }
        guard Self.heapIsGlibcs else { return Self.expectNotSearchedBack(found) }
        #expect(found.outcome == .live, "\(found)")
        #expect(
            found.description
                == "a Task running closure #1 in closure #1 in closure #1 in RetainerRootsTests.aTaskAwaitingAStreamThatNeverEndsHoldsIt()"
                + " (capture) › Coordinator#3",
            "\(found)")
    }

    @Test func aScheduledTimerHoldsItThroughItsBlock() throws {
        var timer: Timer?
        defer { timer?.invalidate() }
        let found = try search(timeBudget: Self.backwardBudget) { _, _, _, share in
            let held = Unchecked(share)
            timer = Timer.scheduledTimer(withTimeInterval: 1_000, repeats: true) { _ in held.value.finish() }
        }
        guard Self.heapIsGlibcs else { return Self.expectNotSearchedBack(found) }
        #expect(found.outcome == .live, "\(found)")
        #expect(found.description == "a scheduled Timer (its run loop keeps it until invalidate())._fire › Coordinator#3", "\(found)")
    }

    /// The observer's closure is found; what holds it (the notification center's registrations) is not named, and the
    /// line says so rather than guess.
    @Test func aNotificationObserverBlockIsNamedAsFarAsItIsSeen() throws {
        var token: NSObjectProtocol?
        defer { token.map(NotificationCenter.default.removeObserver) }
        let found = try search(timeBudget: Self.backwardBudget) { _, _, _, share in
            let held = Unchecked(share)
            token = NotificationCenter.default.addObserver(forName: Notification.Name("zoo"), object: nil, queue: nil) { _ in held.value.finish() }
        }
        guard Self.heapIsGlibcs else { return Self.expectNotSearchedBack(found) }
        Self.expectNoFalseRoot(found, allowed: "NotificationCenter")
        // Other tests' tasks alive beside it once made a word left in a task's frame or fields the holder read first
        // (`held by a Task's frame`, or `a Task (capture)`): frames are no holders the search names now.
        #expect(found.description.contains("held by a closure's context › Coordinator#3"), "\(found)")
    }

    @Test func aDispatchSourceHandlerIsNamedAsABlock() throws {
        var source: DispatchSourceTimer?
        defer { source?.cancel() }
        let found = try search(timeBudget: Self.backwardBudget) { _, _, _, share in
            source = DispatchSource.makeTimerSource()
            source!.setEventHandler { share.finish() }
            source!.schedule(deadline: .distantFuture)
            source!.resume()
        }
        guard Self.heapIsGlibcs else { return Self.expectNotSearchedBack(found) }
        Self.expectNoFalseRoot(found, allowed: "Dispatch")
        #expect(found.description.contains("held by a block (a closure passed to Dispatch or C) › Coordinator#3"), "\(found)")
    }

    /// A task that once had it in a local of a call that returned, and waits now: the word is left in the task's
    /// frames past the bytes in use, and the task is no holder (a suite's other tasks once read as holding a leak).
    @Test func aWordLeftInATasksReturnedFrameIsNoHolder() async throws {
        let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
        defer { continuation.finish() }
        let retained = RetainedBox()
        // The search waits for the task to park, so it runs on a thread of its own: blocking one of the cooperative
        // pool's two threads here, with another test blocking the other, left no thread to run the task on.
        let found = try await Self.onAThreadOfItsOwn {
            try self.search(timeBudget: Self.backwardBudget) { _, _, _, share in
                retained.value = Unmanaged.passRetained(share)
                let slot = Slot(share)
                let parked = DispatchSemaphore(value: 0)
                Task {
                    await Self.visit(slot)
                    parked.signal()
                    for await _ in stream {}
                }
                parked.wait()
            }
        }
        retained.value?.release()
        guard Self.heapIsGlibcs else { return Self.expectNotSearchedBack(found) }
        #expect(found.outcome == .unreachable, "\(found)")
        #expect(!found.description.contains("a Task"), "\(found)")
    }

    /// `body` on a new thread, awaited: for a test that must block while tasks run.
    static func onAThreadOfItsOwn<Value: Sendable>(_ body: @escaping @Sendable () throws -> Value) async throws -> Value {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result(catching: body)) }.start()
        }
    }

    /// An unbalanced retain, kept to be balanced once the search is done (not a reference the search can see).
    final class RetainedBox: @unchecked Sendable {
        var value: Unmanaged<Coordinator>?
    }

    /// Hands its object over once, then holds nothing.
    final class Slot: @unchecked Sendable {
        var object: AnyObject?
        init(_ object: AnyObject) { self.object = object }
    }

    /// Keeps `slot`'s object in a local of its async frame across a suspension, then returns, leaving that frame.
    @inline(never)
    static func visit(_ slot: Slot) async {
        let kept = slot.object
        slot.object = nil
        await Task.yield()
        withExtendedLifetime(kept) {}
    }

    /// Nothing of the app holds it: no holder is named, and the line says what an unbalanced retain looks like.
    @Test func anUnbalancedRetainNamesNoHolder() throws {
        var retained: Unmanaged<Coordinator>?
        let found = try search(timeBudget: Self.backwardBudget) { _, _, _, share in retained = Unmanaged.passRetained(share) }
        retained?.release()
        guard Self.heapIsGlibcs else { return Self.expectNotSearchedBack(found) }
        #expect(found.outcome == .unreachable, "\(found)")
        #expect(!found.description.contains("held by"), "\(found)")
        #expect(found.description.contains("then back from it through"), "\(found)")
        #expect(
            found.description.contains("no word there holds its address (an unbalanced retain")
                || found.description.contains("an unbalanced retain (Unmanaged.passRetained) reads this way"), "\(found)")
    }

    /// The heap of a test process running every suite at once is large and the machine shared: a budget that never
    /// ends these searches, so what is checked is what they find, not how fast.
    static let backwardBudget = 20.0

    /// Under AddressSanitizer the heap is the sanitizer's, which the search does not walk: it says so instead.
    static let heapIsGlibcs = ProcessInfo.processInfo.environment["COORDLENS_SANITIZED"] != "address"

    private static func expectNotSearchedBack(_ found: RetainerPath, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(found.outcome == .unreachable, "\(found)", sourceLocation: sourceLocation)
        #expect(found.description.contains("not searched back from it: the heap is not glibc's malloc"), "\(found)", sourceLocation: sourceLocation)
    }

    /// A root the search reports must be the one that holds it: with the holder it cannot name, no other root.
    private static func expectNoFalseRoot(_ found: RetainerPath, allowed: String, sourceLocation: SourceLocation = #_sourceLocation) {
        if found.outcome == .live {
            #expect(found.steps.first?.holder.contains(allowed) == true, "a root that is not the holder: \(found)", sourceLocation: sourceLocation)
        } else {
            #expect(found.outcome == .unreachable, "\(found)", sourceLocation: sourceLocation)
        }
    }
}

/// A value a `@Sendable` closure may capture in a test that knows no other thread touches it.
struct Unchecked<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
#endif
