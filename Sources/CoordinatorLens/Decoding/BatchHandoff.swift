#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Batches passed from one producer thread to one consumer thread, in order, at most `capacity` waiting: the
/// producer waits when the consumer falls behind, so what is in flight stays bounded whatever the input's size.
///
/// A pthread mutex and condition rather than Dispatch: the consumer blocks on the producer, and a producer queued on
/// Dispatch's shared pool could wait behind the very work that blocks (`ParallelSummary` fills that pool).
final class BatchHandoff<Batch: Sendable>: @unchecked Sendable {
    private let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let changed = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    // Touched only with `lock` held.
    private var waiting: [Batch] = []
    private var finished = false
    private let capacity: Int

    init(capacity: Int) {
        self.capacity = capacity
        lock.initialize(to: pthread_mutex_t())
        changed.initialize(to: pthread_cond_t())
        pthread_mutex_init(lock, nil)
        pthread_cond_init(changed, nil)
    }

    deinit {
        pthread_cond_destroy(changed)
        pthread_mutex_destroy(lock)
        changed.deallocate()
        lock.deallocate()
    }

    /// Hands `batch` over, first waiting for room.
    func put(_ batch: Batch) {
        pthread_mutex_lock(lock)
        while waiting.count >= capacity { pthread_cond_wait(changed, lock) }
        waiting.append(batch)
        pthread_cond_broadcast(changed)
        pthread_mutex_unlock(lock)
    }

    /// Says no batch follows.
    func finish() {
        pthread_mutex_lock(lock)
        finished = true
        pthread_cond_broadcast(changed)
        pthread_mutex_unlock(lock)
    }

    /// The next batch, waiting for it; nil once the producer finished and every batch was taken.
    func take() -> Batch? {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        while waiting.isEmpty, !finished { pthread_cond_wait(changed, lock) }
        guard !waiting.isEmpty else { return nil }
        // At most `capacity` wait, a handful: shifting them is cheaper than any ring.
        let batch = waiting.removeFirst()
        pthread_cond_broadcast(changed)
        return batch
    }
}
