import CoordinatorLens
import CoordinatorTrace
import Testing

final class Coordinator: Sendable {}
final class OtherCoordinator {}
final class Screen {}

/// A coordinator that reports its own removal from `deinit`, as some base classes do.
final class SelfRemovingCoordinator {
    let tracer: Tracer
    weak var parent: Coordinator?

    init(tracer: Tracer, parent: Coordinator) {
        self.tracer = tracer
        self.parent = parent
    }

    deinit {
        tracer.removed(self, from: parent)
    }
}

/// Decodes what a memory sink received into the single session it must hold.
func session(from sink: MemorySink) throws -> SessionLog {
    let recording = Recording(bytes: sink.bytes)
    try #require(recording.sessions.count == 1)
    return recording.sessions[0]
}

func records(_ log: SessionLog) -> [EventRecord] {
    log.entries.compactMap { entry in
        if case .record(let record) = entry { return record }
        return nil
    }
}

func events(_ log: SessionLog) -> [Event] {
    records(log).map(\.event)
}
