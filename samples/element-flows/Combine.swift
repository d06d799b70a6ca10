/// Combine's `PassthroughSubject` and `AnyCancellable`, as far as the sample needs them: a subject keeps its
/// subscribers' closures until they are cancelled; a cancellable keeps the subject it cancels from.
final class ActionsSubject<Action> {
    private var subscribers: [Int: (Action) -> Void] = [:]
    private var next = 0

    func send(_ action: Action) {
        for subscriber in subscribers.values { subscriber(action) }
    }

    func sink(_ receive: @escaping (Action) -> Void) -> Cancellable {
        next += 1
        subscribers[next] = receive
        let key = next
        return Cancellable { [weak self] in self?.subscribers[key] = nil }
    }
}

final class Cancellable {
    private let cancel: () -> Void

    init(_ cancel: @escaping () -> Void) {
        self.cancel = cancel
    }

    func store(in set: inout [Cancellable]) {
        set.append(self)
    }

    deinit { cancel() }
}
