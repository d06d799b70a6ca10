import CoordinatorLens
import CoordinatorTrace
import Foundation
import Testing

/// The Linux sweep over weak references, in slices: the app's threads go on while it runs, and marks still come after
/// every deallocation that happened before them.
@Suite struct SweepTests {
    /// Thousands of coordinators freed before a mark, with screens bound to some of them: each one's deinit (and its
    /// screen's dismissal first) is in the stream before the mark, although the sweep takes the lock many times.
    @Test func everyDeathBeforeAMarkIsReportedBeforeItAcrossManySlices() throws {
        let tracer = Tracer()
        let sink = MemorySink()
        // A long tick: the mark's own sweep, not the writer's, must find the deaths.
        tracer.start(app: "Slices", sink: sink, options: TraceOptions(bufferCapacity: 1 << 20, tickInterval: 1))
        let root = Coordinator()
        tracer.added(root, to: nil)
        var children: [Coordinator]? = (0..<5_000).map { _ in Coordinator() }
        var screens: [Screen]? = (0..<1_000).map { _ in Screen() }
        for child in children! { tracer.added(child, to: root) }
        for (index, screen) in screens!.enumerated() { tracer.bind(children![index], to: screen) }
        let survivors = (0..<2_000).map { _ in Coordinator() }
        for survivor in survivors { tracer.added(survivor, to: root) }
        children = nil
        screens = nil
        tracer.mark("after")
        tracer.end()
        withExtendedLifetime((root, survivors)) {}
        let kinds = events(try session(from: sink))
        let markIndex = try #require(kinds.firstIndex(of: .mark(label: "after")))
        let deinits = kinds.indices.filter { if case .deinitialized = kinds[$0] { true } else { false } }
        #expect(deinits.count == 5_000)
        #expect(deinits.allSatisfy { $0 < markIndex }, "every death before the mark call is reported before the mark")
        for id in 2...1_001 {
            let dismissal = try #require(kinds.firstIndex { if case .dismiss(id: .init(id), _) = $0 { true } else { false } })
            let death = try #require(kinds.firstIndex(of: .deinitialized(id: .init(id))))
            #expect(dismissal < death, "a screen freed with its coordinator is dismissed first")
            if dismissal > death { break }
        }
    }

    /// A mark over 300,000 live coordinators sweeps them all; another thread's calls go on meanwhile. On the sweep
    /// that held the lock for the whole pass, none finished while the mark was under way.
    @Test func callsOnOtherThreadsGoOnWhileAMarkSweepsManyCoordinators() throws {
        let tracer = Tracer()
        tracer.start(app: "Crowd", sink: MemorySink(), options: TraceOptions(bufferCapacity: 1 << 21, tickInterval: 1))
        let root = Coordinator()
        tracer.added(root, to: nil)
        let crowd = (0..<300_000).map { _ in Coordinator() }
        for member in crowd { tracer.added(member, to: root) }
        let progress = MarkProgress()
        let caller = Thread {
            let mine = Coordinator()
            while !progress.isOver {
                let before = progress.markRunning
                tracer.dismissed(mine)
                // Counted only when the whole call began and ended inside the mark.
                if before, progress.markRunning { progress.countCallDuringMark() }
            }
            progress.callerStopped()
        }
        caller.start()
        var best = 0
        for _ in 0..<3 {
            Thread.sleep(forTimeInterval: 0.02)
            progress.begin()
            tracer.mark("crowded")
            best = max(best, progress.finish())
            if best >= 20 { break }
        }
        progress.stop()
        tracer.end()
        withExtendedLifetime((root, crowd)) {}
        #expect(best >= 20, "calls that began and ended during one mark: \(best)")
    }
}

/// What the calling thread and the marking thread of the test above tell each other.
final class MarkProgress: @unchecked Sendable {
    private let lock = NSCondition()
    private var running = false
    private var over = false
    private var stopped = false
    private var calls = 0

    var markRunning: Bool { lock.lock(); defer { lock.unlock() }; return running }
    var isOver: Bool { lock.lock(); defer { lock.unlock() }; return over }
    func countCallDuringMark() { lock.lock(); calls += 1; lock.unlock() }
    func begin() { lock.lock(); running = true; calls = 0; lock.unlock() }
    func finish() -> Int { lock.lock(); defer { lock.unlock() }; running = false; return calls }
    func callerStopped() { lock.lock(); stopped = true; lock.broadcast(); lock.unlock() }
    func stop() {
        lock.lock()
        over = true
        while !stopped { lock.wait() }
        lock.unlock()
    }
}
