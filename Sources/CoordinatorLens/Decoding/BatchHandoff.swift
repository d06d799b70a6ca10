import CoordinatorWire

/// Batches passed from one producer thread to one consumer thread, in order, at most `capacity` waiting: the
/// producer waits when the consumer falls behind, so what is in flight stays bounded whatever the input's size.
///
/// A condition box rather than Dispatch: the consumer blocks on the producer, and a producer queued on Dispatch's
/// shared pool could wait behind the very work that blocks (`ParallelSummary` fills that pool).
final class BatchHandoff<Batch: Sendable>: Sendable {
    private let state = ConditionBox((waiting: [Batch](), finished: false))
    private let capacity: Int

    init(capacity: Int) {
        self.capacity = capacity
    }

    /// Hands `batch` over, first waiting for room.
    func put(_ batch: Batch) {
        state.wait { state -> ConditionBox<(waiting: [Batch], finished: Bool)>.Look<Void> in
            guard state.waiting.count < capacity else { return .waiting(nanoseconds: nil) }
            state.waiting.append(batch)
            return .found(())
        }
    }

    /// Says no batch follows.
    func finish() {
        state.withLockedValue { $0.finished = true }
    }

    /// The next batch, waiting for it; nil once the producer finished and every batch was taken.
    func take() -> Batch? {
        state.wait { state -> ConditionBox<(waiting: [Batch], finished: Bool)>.Look<Batch?> in
            // At most `capacity` wait, a handful: shifting them is cheaper than any ring.
            if !state.waiting.isEmpty { return .found(state.waiting.removeFirst()) }
            return state.finished ? .found(nil) : .waiting(nanoseconds: nil)
        }
    }
}
