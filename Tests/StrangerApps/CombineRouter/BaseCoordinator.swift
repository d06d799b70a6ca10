import CoordinatorTrace
import OpenCombine

/// What every flow of the app derives from: it keeps its children alive while they run and tells the hook about
/// them with the caller's call site (all four parts), so a report names the flow that leaked, not this file.
class BaseCoordinator {
    private(set) var childCoordinators: [BaseCoordinator] = []
    var tracer: Tracer { .shared }

    func addChild(
        _ child: BaseCoordinator, file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function, filePath: StaticString = #filePath
    ) {
        childCoordinators.append(child)
        tracer.added(child, to: self, file: file, line: line, function: function, filePath: filePath)
    }

    func removeChild(
        _ child: BaseCoordinator, file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function, filePath: StaticString = #filePath
    ) {
        childCoordinators.removeAll { $0 === child }
        tracer.removed(child, from: self, file: file, line: line, function: function, filePath: filePath)
    }

    /// The flow is over; whoever started it should let it go now.
    func finish(file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function, filePath: StaticString = #filePath) {
        tracer.dismissed(self, file: file, line: line, function: function, filePath: filePath)
    }
}

/// A flow with one screen that tells the flow that started it when it is over (its parent's sinks listen).
class ChildFlowCoordinator: BaseCoordinator {
    let screen: Screen
    let actionsSubject = PassthroughSubject<FlowCoordinatorAction, Never>()
    var actionsPublisher: AnyPublisher<FlowCoordinatorAction, Never> { actionsSubject.eraseToAnyPublisher() }

    init(title: String) { screen = Screen(title: title) }

    func start() { tracer.bind(self, to: screen) }

    /// The user is done with it: the flow is over and its parent is told so.
    func close() {
        finish()
        actionsSubject.send(.finished)
    }
}

enum FlowCoordinatorAction {
    /// The flow is over.
    case finished
    /// The user closed the flow's screen; the flow itself may be shown again.
    case closeRequested
}

/// The app's stand-in for a view controller: a title, and what UIKit would tell a presentation delegate when the user
/// swipes it down.
final class Screen {
    let title: String
    var onInteractiveDismiss: (() -> Void)?

    init(title: String) { self.title = title }
}
