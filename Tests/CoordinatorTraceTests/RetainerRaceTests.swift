#if RetainerSearch
// The search's own tests: a build without the RetainerSearch trait has no search to test.
import CoordinatorTrace
import Foundation
import Testing

/// The retainer search while other threads change what it walks: mutator threads append, replace, remove and free
/// objects in a living screen's arrays, swap its optional slot between new objects and replace closures in its
/// dictionary, some of them holding the retained coordinator, while the test's thread searches thousands of times (a
/// fresh session every 50 searches, as each retained coordinator is searched once per session). The search must not
/// crash, must say one of the allowed outcomes, and a `.live` chain must name fields that really can hold the
/// coordinator. Run under AddressSanitizer and Thread Sanitizer too (`make test-address-sanitizer`,
/// `make test-thread-sanitizer`). One race at a time: each already keeps two or three threads busy.
@Suite(.serialized) struct RetainerRaceTests {
    /// The outcomes a search may report while its graph changes, by raw value, so that a case the search gains for a
    /// path that went stale under it (`changed`) is allowed here before it exists. Adjust here only.
    static let allowedOutcomes: Set<String> = ["live", "unreachable", "budget", "changed"]
    /// The outcomes a search may report when a field no mutator touches holds the coordinator.
    static let allowedWhenPinned: Set<String> = ["live", "changed"]

    final class Coordinator: @unchecked Sendable {}

    /// What the arrays and the slot hold: an empty one, or one whose payload is the retained coordinator.
    final class Item: @unchecked Sendable {
        var payload: AnyObject?
        var numbers = [1, 2, 3]
        init(_ payload: AnyObject?) { self.payload = payload }
    }

    /// The living screen the search starts at. Every write to it is under `lock`, which the search does not take.
    final class RaceScreen: @unchecked Sendable {
        let lock = NSLock()
        var items: [Item] = []
        var objects: [AnyObject] = []
        var slot: Item?
        var handlers: [String: () -> Void] = [:]
        /// Set by the test's thread only: no mutator touches it.
        var pinned: Coordinator?

        func change(_ body: (RaceScreen) -> Void) {
            lock.lock()
            defer { lock.unlock() }
            body(self)
        }
    }

    /// The coordinator being searched, where the mutators find it and the search cannot; and the stop signal.
    final class Shared: @unchecked Sendable {
        private let lock = NSLock()
        private var target: Coordinator?
        private var stopped = false

        var current: Coordinator? {
            get { locked { target } }
            set { locked { target = newValue } }
        }
        var isStopped: Bool { locked { stopped } }
        func stop() { locked { stopped = true } }

        private func locked<T>(_ body: () -> T) -> T {
            lock.lock()
            defer { lock.unlock() }
            return body()
        }
    }

    /// SplitMix64, one per thread.
    struct Random {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Int((z ^ (z >> 31)) % UInt64(bound))
        }
    }

    enum Mutation {
        /// `items` and `objects`: append, remove, replace (freeing what was there).
        case arrays
        /// `slot`: a new item each time, the old one freed.
        case slot
        /// `handlers`: closures replaced and removed under four keys.
        case closures
    }

    /// A mutator thread's loop, until `shared` says stop.
    static func mutate(_ mutation: Mutation, _ screen: RaceScreen, _ shared: Shared, seed: UInt64) {
        var random = Random(state: seed)
        while !shared.isStopped {
            // A quarter of the new objects hold the coordinator being searched.
            let payload: AnyObject = (random.next(4) == 0 ? shared.current : nil) ?? Item(nil)
            let choice = random.next(8)
            let position = random.next(64)
            screen.change { screen in
                switch mutation {
                case .arrays:
                    switch choice {
                    case 0...1 where screen.items.count < 48: screen.items.append(Item(payload))
                    case 2 where !screen.items.isEmpty: screen.items.remove(at: position % screen.items.count)
                    case 3 where !screen.items.isEmpty: screen.items[position % screen.items.count] = Item(payload)
                    case 4 where screen.objects.count < 48: screen.objects.append(payload)
                    case 5 where !screen.objects.isEmpty: screen.objects.remove(at: position % screen.objects.count)
                    case 6: screen.items.shuffle()
                    default: if screen.items.count > 40 { screen.items.removeAll() }
                    }
                case .slot:
                    screen.slot = choice == 0 ? nil : Item(payload)
                case .closures:
                    let key = "k\(position % 4)"
                    if choice == 0 {
                        screen.handlers[key] = nil
                    } else {
                        screen.handlers[key] = {
                            _ = payload
                            _ = position
                        }
                    }
                }
            }
        }
    }

    /// Whether a `.live` chain is one the screen's fields can make: an item in `items` or `slot` holding it, the
    /// coordinator itself in `objects`, a closure in `handlers` capturing it, or `pinned`.
    static func canHold(_ path: RetainerPath) -> Bool {
        func indexed(_ field: String, _ name: String) -> Bool {
            field.hasPrefix(name + "[") && field.hasSuffix("]") && Int(field.dropFirst(name.count + 1).dropLast()) != nil
        }
        let steps = path.steps
        // The screen is Coordinator#1's, and the chain says so.
        guard let first = steps.first, let last = steps.last, first.holder == "RaceScreen (screen of Coordinator#1)", first.holderID == nil
        else { return false }
        switch (steps.count, last.holder, last.kind) {
        case (1, "RaceScreen (screen of Coordinator#1)", .property): return last.field == "pinned"
        case (1, "RaceScreen (screen of Coordinator#1)", .element): return indexed(last.field, "objects")
        case (1, "RaceScreen (screen of Coordinator#1)", .capture): return (0..<4).contains { last.field == #"handlers["k\#($0)"]"# }
        case (2, "Item", .property):
            return last.field == "payload" && last.holderID == nil
                && ((first.field == "slot" && first.kind == .property) || (indexed(first.field, "items") && first.kind == .element))
        default: return false
        }
    }

    /// What one race saw.
    struct Tally {
        var searches = 0
        var outcomes: [String: Int] = [:]
        var problems: [String] = []

        mutating func note(_ problem: String) {
            if problems.count < 20 { problems.append(problem) }
        }
    }

    /// Runs `mutations` on their own threads while this thread searches, for at most `seconds` or `maximumSearches`
    /// searches. Before each search the retained coordinator is, at random, put in `pinned`, put in one of the mutated
    /// structures (where a mutator may take it out again), or left to the mutators.
    static func race(_ mutations: [Mutation], seconds: Double, maximumSearches: Int, seed: UInt64) -> Tally {
        let screen = RaceScreen()
        let shared = Shared()
        let finished = DispatchGroup()
        for (index, mutation) in mutations.enumerated() {
            finished.enter()
            let thread = Thread {
                mutate(mutation, screen, shared, seed: seed &+ UInt64(index) &+ 1)
                finished.leave()
            }
            thread.start()
        }
        var tally = Tally()
        var random = Random(state: seed)
        let deadline = Date().addingTimeInterval(seconds)
        // Forward only: a target the mutators leave unreachable would be searched back from for up to its budget, and
        // these races are about the paths the walker follows while objects change.
        let options = TraceOptions(
            grace: 0, retainerSearch: RetainerSearchOptions(timeBudget: 5, totalTimeBudget: 10, sendsKeyText: true, searchesBack: false))
        // At least `minimumSearches` whatever the machine's load (the race means nothing with fewer); the deadline bounds
        // only the searches past them.
        func goesOn() -> Bool { tally.searches < maximumSearches && (tally.searches < Self.minimumSearches || Date() < deadline) }
        while goesOn() {
            let tracer = Tracer()
            tracer.start(app: "Race", sink: MemorySink(), options: options)
            let root = Coordinator()
            tracer.added(root, to: nil)
            tracer.bind(root, to: screen)
            for _ in 0..<50 where goesOn() {
                let target = Coordinator()
                tracer.added(target, to: root)
                tracer.removed(target, from: root)
                shared.current = target
                let placement = random.next(6)
                let position = random.next(64)
                screen.change { screen in
                    switch placement {
                    case 0: screen.pinned = target
                    case 1 where screen.items.count < 48: screen.items.append(Item(target))
                    case 1: screen.items[position % screen.items.count] = Item(target)
                    case 2: screen.slot = Item(target)
                    case 3 where screen.objects.count < 48: screen.objects.append(target)
                    case 4:
                        screen.handlers["k\(position % 4)"] = {
                            _ = target
                            _ = position
                        }
                    default: break
                    }
                }
                let paths = tracer.searchRetainers()
                tally.searches += 1
                if paths.count != 1 { tally.note("search \(tally.searches): \(paths.count) paths, not 1: \(paths)") }
                for path in paths {
                    tally.outcomes[path.outcome.rawValue, default: 0] += 1
                    if !allowedOutcomes.contains(path.outcome.rawValue) { tally.note("search \(tally.searches): outcome \(path.outcome): \(path)") }
                    if placement == 0, !allowedWhenPinned.contains(path.outcome.rawValue) {
                        tally.note("search \(tally.searches): pinned, yet \(path.outcome): \(path)")
                    }
                    if path.outcome == .live, !canHold(path) { tally.note("search \(tally.searches): no field can hold it so: \(path)") }
                }
                screen.change { $0.pinned = nil }
            }
            tracer.end()
        }
        shared.stop()
        finished.wait()
        return tally
    }

    /// Searches each race runs however slow the machine: a 2.5 s deadline alone ran 18 beside every other suite.
    static let minimumSearches = 20

    private func check(_ tally: Tally, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(tally.problems.isEmpty, "\(tally.problems.joined(separator: "\n"))", sourceLocation: sourceLocation)
        #expect(tally.outcomes["live", default: 0] > 0, "\(tally.outcomes)", sourceLocation: sourceLocation)
    }

    @Test func searchesWhileArraysOfObjectsAreAppendedRemovedAndReplaced() {
        check(Self.race([.arrays, .arrays], seconds: 2, maximumSearches: 2_000, seed: 1))
    }

    @Test func searchesWhileAnOptionalSlotIsSwappedBetweenNewObjects() {
        check(Self.race([.slot, .slot], seconds: 2, maximumSearches: 2_000, seed: 2))
    }

    @Test func searchesWhileADictionaryOfClosuresIsReplaced() {
        check(Self.race([.closures, .closures], seconds: 2, maximumSearches: 2_000, seed: 3))
    }

    @Test func searchesWhileEverythingChangesAtOnce() {
        check(Self.race([.arrays, .slot, .closures], seconds: 2.5, maximumSearches: 2_500, seed: 4))
    }
}
#endif
