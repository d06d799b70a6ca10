import CoordinatorWire
import Foundation
import NIOPosix
import TestSupport
import Testing

@testable import CoordinatorLensServer

/// The page's blocking work runs on the server's pool with a bound: past it a request is refused at once.
@Suite struct PageWorkTests {
    @Test(.timeLimit(.minutes(1)))
    func pastItsLimitWorkIsRefusedAndRoomComesBackWhenItFinishes() async throws {
        let pool = NIOThreadPool(numberOfThreads: 1)
        pool.start()
        let work = PageWork(pool: pool, unshed: OrderedWork(on: pool), limit: 2)
        // The first request blocks until released; the second waits behind it.
        let gate = ConditionBox((released: false, started: 0, finished: 0))
        let blocking: @Sendable () -> Void = {
            gate.withLockedValue { $0.started += 1 }
            gate.wait { $0.released ? .found(()) : .waiting(nanoseconds: nil) }
            gate.withLockedValue { $0.finished += 1 }
        }
        #expect(work.submit(blocking))
        #expect(work.submit(blocking))
        gate.wait { $0.started == 1 ? .found(()) : .waiting(nanoseconds: 10_000_000) }
        #expect(!work.submit(blocking), "a third is refused while two are in hand")
        #expect(work.pending == 2)

        gate.withLockedValue { $0.released = true }
        gate.wait { $0.finished == 2 ? .found(()) : .waiting(nanoseconds: 10_000_000) }
        // The count drops after the body returns; wait for it rather than race it.
        await waitUntil(seconds: 10, every: 0.002) { () async in work.pending == 0 }
        #expect(work.pending == 0)
        #expect(work.submit {})
        try await pool.shutdownGracefully()
    }
}
