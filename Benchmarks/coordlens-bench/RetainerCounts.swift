// `coordlens-bench count retainer DIR`: the retainer search's instructions per object it looks at, for `make
// bench-check`. The wall-clock figures (RetainerFigures.swift) move with the machine; these move only with the code.
import CoordinatorTrace
import Foundation

/// Objects in the counted app: under callgrind a search runs about 50 times slower, and 2,000 objects keep the group
/// to seconds while the per-object cost is still what the 10,000 of `make bench` pay.
private let countedObjects = 2_000

/// The search from a living root through `countedObjects` screens to a leak held at the end of the chain
/// (`retainer.forward`), and the same with the leak held by nothing, where the forward search looks at every object
/// before it gives up (`retainer.unheld`; the backward search is off: valgrind's own malloc is not glibc's, so the heap
/// it would walk is not there to count). Per object the search looked at, each in a session of its own with the
/// writer parked, so no other thread takes the tracer's lock while it is counted.
func countRetainerSearch(_: String) throws {
    // A first search, uncounted: the self-check, the type names and the images' symbols are made once per process.
    searchedPaths(held: true, objects: 10) { _ = $0() }
    for (name, held) in [("retainer.forward", true), ("retainer.unheld", false)] {
        var visited = 0
        searchedPaths(held: held, objects: countedObjects) { search in
            countedRegion(name, operations: countedObjects) { visited = search().first?.visited ?? 0 }
        }
        guard visited >= countedObjects else { throw RetainerCountError.lookedAtTooFew(name, visited) }
    }
}

/// A count whose search did not walk the chain measures something else: said, not counted.
private enum RetainerCountError: Error, CustomStringConvertible {
    case lookedAtTooFew(String, Int)

    var description: String {
        switch self {
        case .lookedAtTooFew(let name, let visited):
            "\(name): the search looked at \(visited) objects, fewer than the \(countedObjects) of the chain"
        }
    }
}

/// A session holding a living root with `objects` screens and a coordinator done under it; `count` runs its search.
private func searchedPaths(held: Bool, objects: Int, _ count: (() -> [RetainerPath]) -> Void) {
    let sink = ParkingSink()
    let tracer = Tracer()
    let options = RetainerSearchOptions(maximumObjects: objects * 2, timeBudget: 600, totalTimeBudget: 600, searchesBack: false)
    tracer.start(app: "Counts", sink: sink, options: TraceOptions(tickInterval: 1, grace: 0, heartbeatInterval: 60, retainerSearch: options))
    sink.waitUntilParked()
    let retained = BenchCoordinator()
    let root = BenchRoot(objects: objects, holding: held ? retained : nil)
    tracer.added(root, to: nil)
    tracer.added(retained, to: root)
    tracer.removed(retained, from: root)
    count { tracer.searchRetainers() }
    sink.release()
    tracer.end()
    withExtendedLifetime((root, retained)) {}
}
