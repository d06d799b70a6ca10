import OpenCombine

enum HomeScreenAction {
    case openRoom(Int)
    case compose
    case search
    case settings
    case members
    case shareLocation
    case mention(String)
}

/// The home screen's state and what the user does there, as its coordinator hears it.
final class HomeScreenViewModel {
    private let actionsSubject = PassthroughSubject<HomeScreenAction, Never>()
    var actionsPublisher: AnyPublisher<HomeScreenAction, Never> { actionsSubject.eraseToAnyPublisher() }
    @Published var unreadCount = 0
    private var cancellables = Set<AnyCancellable>()

    /// For screens pushed over home that react to what is tapped on it. The subscription is this view model's and
    /// lives as long as it does, with whatever the handler captured.
    func observeActions(_ handler: @escaping (HomeScreenAction) -> Void) {
        actionsSubject.sink(receiveValue: handler).store(in: &cancellables)
    }

    func userTapped(_ action: HomeScreenAction) { actionsSubject.send(action) }
}

/// The app's own subscriber for values a screen shows, generic over them: one closure per value, set by whoever shows
/// them (nil while nobody does).
final class Observer<Output>: Subscriber {
    typealias Input = Output
    typealias Failure = Never

    var onValue: ((Output) -> Void)?
    private var subscription: (any Subscription)?

    func receive(subscription: any Subscription) {
        self.subscription = subscription
        subscription.request(.unlimited)
    }

    func receive(_ input: Output) -> Subscribers.Demand {
        onValue?(input)
        return .none
    }

    func receive(completion: Subscribers.Completion<Never>) { subscription = nil }
}

final class ProfileViewModel {
    let displayName = CurrentValueSubject<String, Never>("Ada")
    let badgeCount = CurrentValueSubject<Int, Never>(0)
    private let nameObserver = Observer<String>()
    private let badgeObserver = Observer<Int>()
    private(set) var title = ""

    init() {
        nameObserver.onValue = { [weak self] name in self?.title = name }
        // Captures nothing: a check on what the server sent, not a reaction.
        badgeObserver.onValue = { count in precondition(count >= 0, "a badge count is never negative") }
        displayName.subscribe(nameObserver)
        badgeCount.subscribe(badgeObserver)
    }
}
