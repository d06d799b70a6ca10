import CoordinatorWire
import Foundation
import NIOConcurrencyHelpers
import NIOPosix
import Testing

@testable import CoordinatorLensServer

/// The judging lane: work handed in runs one job at a time and in order, on a pool whose other threads stay free.
@Suite struct OrderedWorkTests {
    @Test(.timeLimit(.minutes(1)))
    func jobsRunOneAtATimeInOrderWhileThePoolDoesOtherWork() async throws {
        let pool = NIOThreadPool(numberOfThreads: 3)
        pool.start()
        let lane = OrderedWork(on: pool)
        let seen = NIOLockedValueBox((order: [Int](), running: 0, most: 0))
        for job in 0..<200 {
            lane.submit {
                seen.withLockedValue { state in
                    state.running += 1
                    state.most = max(state.most, state.running)
                }
                // A job that takes a moment, so a second one would overlap it if the lane let it.
                var spin = 0
                for step in 0..<2_000 { spin &+= step }
                withExtendedLifetime(spin) {}
                seen.withLockedValue { state in
                    state.running -= 1
                    state.order.append(job)
                }
            }
        }
        // The pool's other threads are free while the lane runs: a blocking job elsewhere finishes.
        let elsewhere = try await pool.runIfActive { 42 }
        let last = await lane.run { seen.withLockedValue { $0.order.count } }
        #expect(elsewhere == 42)
        #expect(last == 200, "run waits for everything handed in before it")
        let state = seen.withLockedValue { $0 }
        #expect(state.order == Array(0..<200))
        #expect(state.most == 1, "never two jobs of the lane at once")
        try await pool.shutdownGracefully()
        #expect(await lane.run { 7 } == 7, "a caller is answered after the pool has shut down")
    }
}
