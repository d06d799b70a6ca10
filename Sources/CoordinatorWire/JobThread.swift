import Foundation

/// One thread that runs the jobs handed to it in order, for work that must stay on one thread or off the cooperative
/// pool: libgvc (not thread-safe, and a deep recursion that needs a big stack), a SQLite connection (whose statements
/// block while another process holds the file). `ConditionBox`'s job queue; it ends with `stop()`.
package final class JobThread: Sendable {
    private struct Job: @unchecked Sendable {
        /// nil: the thread ends.
        var work: (() -> Void)?
        /// Told once the thread has let go of `work`, for a caller that lent it without escaping.
        var done: ConditionBox<Bool>? = nil
    }

    private let jobs = ConditionBox<[Job]>([])

    /// Starts the thread, named `name`, with a stack of `stackBytes` (nil: the platform's default).
    package init(name: String, stackBytes: Int? = nil) {
        let thread = Thread { [jobs] in
            while true {
                var job: Job? = jobs.wait { jobs -> ConditionBox<[Job]>.Look<Job> in
                    jobs.isEmpty ? .waiting(nanoseconds: nil) : .found(jobs.removeFirst())
                }
                guard job!.work != nil else { return }
                let done = job!.done
                job!.work!()
                job = nil
                done?.withLockedValue { $0 = true }
            }
        }
        thread.name = name
        if let stackBytes { thread.stackSize = stackBytes }
        thread.start()
    }

    /// Hands `work` to the thread and returns at once.
    package func enqueue(_ work: @escaping @Sendable () -> Void) {
        jobs.withLockedValue { $0.append(Job(work: work)) }
    }

    /// Runs `work` on the thread and returns once it has; `work` may use what the caller lends it (a lock it holds, a
    /// stream), since the caller waits.
    package func run(_ work: () -> Void) {
        withoutActuallyEscaping(work) { work in
            let done = ConditionBox(false)
            jobs.withLockedValue { $0.append(Job(work: work, done: done)) }
            done.wait { $0 ? .found(()) : .waiting(nanoseconds: nil) }
        }
    }

    /// Ends the thread once the jobs handed to it before are done.
    package func stop() {
        jobs.withLockedValue { $0.append(Job(work: nil)) }
    }
}
