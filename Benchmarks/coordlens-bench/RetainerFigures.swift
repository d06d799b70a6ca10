import CoordinatorTrace
import Foundation

/// An app's object graph for the retainer search: a living root coordinator holds `objects` screens in an array,
/// each with a closure capturing the next screen and a value, and the retained coordinator hangs off the last one
/// (or off nothing: then every object is looked at twice, from the roots and around a cycle).
final class BenchScreen {
    var next: (() -> Int)?
    var title = "screen"
    var coordinator: AnyObject?
}

final class BenchRoot {
    var screens: [BenchScreen] = []

    /// `objects` screens chained by their closures, with `retained` hung off the last one when `held`.
    init(objects: Int, holding retained: BenchCoordinator? = nil) {
        screens = (0..<objects).map { _ in BenchScreen() }
        for (index, screen) in screens.enumerated().dropLast() {
            let following = screens[index + 1]
            let tag = index
            screen.next = { tag + following.title.count }
        }
        screens.last?.coordinator = retained
    }
}

/// The search's cost per retained coordinator with `objects` objects reachable: median and worst wall time of
/// `rounds` searches, each in a session of its own.
func retainerSearchTime(objects: Int = 10_000, rounds: Int = 9) {
    for held in [true, false] {
        var times: [Double] = []
        var visited = 0
        for _ in 0..<rounds {
            let retained = BenchCoordinator()
            let root = BenchRoot(objects: objects, holding: held ? retained : nil)
            let (milliseconds, paths) = timedSearch(
                root: root, retained: retained, RetainerSearchOptions(maximumObjects: objects * 2, timeBudget: 10))
            times.append(milliseconds)
            visited = paths.first?.visited ?? 0
        }
        print(
            String(
                format: "retainer search, %@ with %d objects reachable: median %.1f ms, worst %.1f ms (%d objects looked at)",
                held ? "held at the end of a chain" : "held by nothing", objects, median(times), times.max() ?? 0, visited))
    }
}

/// One session in which `retained` was detached from the living `root`, and how long its search took (milliseconds).
private func timedSearch(root: BenchRoot, retained: BenchCoordinator, _ search: RetainerSearchOptions) -> (Double, [RetainerPath]) {
    let tracer = Tracer()
    tracer.start(app: "Bench", sink: DiscardingSink(), options: TraceOptions(grace: 0, retainerSearch: search))
    tracer.added(root, to: nil)
    tracer.added(retained, to: root)
    tracer.removed(retained, from: root)
    let start = wallNanos()
    let paths = tracer.searchRetainers()
    let milliseconds = Double(wallNanos() - start) / 1e6
    tracer.end()
    withExtendedLifetime((root, retained)) {}
    return (milliseconds, paths)
}

/// An object of the app's heap the search has to read past: 80 bytes of fields, a 112-byte malloc chunk.
private final class Ballast {
    var words: (Int, Int, Int, Int, Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
}

/// The search back from a leak nothing names (an unbalanced retain) through an app with about `megabytes` of heap in
/// small objects: it walks every chunk of the heaps and reads every word of them. Median and worst of `rounds`.
func retainerBackwardTime(megabytes: Int = 100, rounds: Int = 5) {
    let ballast = (0..<(megabytes << 20) / 112).map { _ in Ballast() }
    var times: [Double] = []
    var read = ""
    for _ in 0..<rounds {
        let root = BenchRoot(objects: 0)
        let retained = BenchCoordinator()
        let kept = Unmanaged.passRetained(retained)
        let (milliseconds, paths) = timedSearch(root: root, retained: retained, RetainerSearchOptions(timeBudget: 10, totalTimeBudget: 20))
        times.append(milliseconds)
        let reason = paths.first?.reason ?? ""
        read = reason.range(of: #"through [0-9.]+ MB of heap and globals \([0-9]+ regions\)"#, options: .regularExpression).map { String(reason[$0]) } ?? reason
        kept.release()
    }
    withExtendedLifetime(ballast) {}
    print(
        String(
            format: "retainer search back from a leak nothing names, %d MB of heap in %d objects: median %.1f ms, worst %.1f ms (%@)",
            megabytes, ballast.count, median(times), times.max() ?? 0, read))
}
