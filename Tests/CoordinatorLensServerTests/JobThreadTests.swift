import CoordinatorWire
import Foundation
import Testing

/// The tools' one thread-maker: jobs run in the order handed in, on one thread, and `run` returns only once its job
/// has run (and let go of what it borrowed).
@Suite struct JobThreadTests {
    @Test func jobsRunInOrderOnOneThreadAndRunWaitsForItsJob() {
        let thread = JobThread(name: "test-jobs")
        defer { thread.stop() }
        let seen = ConditionBox<[Int]>([])
        let threads = ConditionBox<Set<UInt>>([])
        for index in 0..<50 {
            thread.enqueue {
                seen.withLockedValue { $0.append(index) }
                threads.withLockedValue { _ = $0.insert(UInt(pthread_self())) }
            }
        }
        var borrowed = 0
        thread.run { borrowed = seen.withLockedValue { $0.count } }
        #expect(borrowed == 50, "run's job comes after every job handed in before it")
        #expect(seen.withLockedValue { $0 } == Array(0..<50))
        #expect(threads.withLockedValue { $0 }.count == 1)
        #expect(!threads.withLockedValue { $0 }.contains(UInt(pthread_self())), "not the caller's thread")
    }

    @Test func aStoppedThreadRunsWhatCameBeforeTheStop() {
        let thread = JobThread(name: "test-stop")
        let done = ConditionBox(false)
        thread.enqueue { done.withLockedValue { $0 = true } }
        thread.stop()
        done.wait { $0 ? .found(()) : .waiting(nanoseconds: 5_000_000_000) }
        #expect(done.withLockedValue { $0 })
    }
}
