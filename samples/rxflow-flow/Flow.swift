import UIKitStandIn

/// RxFlow's vocabulary, written from scratch without Rx: a `Flow` owns its root presentable and turns `Step`s into
/// `FlowContributors`; `Stepper`s emit steps; a `FlowCoordinator` per flow runs it, keeps the child flows' coordinators,
/// and ends a child flow when its root is dismissed (RxFlow's `rx.dismissed`).
protocol Step {}

/// Emits steps; RxFlow's `steps` relay, as a closure.
protocol Stepper: AnyObject {
    var emit: ((Step) -> Void)? { get set }
}

/// One step and nothing more, as RxFlow's `OneStepper`.
final class OneStepper: Stepper {
    var emit: ((Step) -> Void)?
    let step: Step

    init(withSingleStep step: Step) {
        self.step = step
    }
}

protocol Flow: AnyObject {
    /// The flow's root, held strongly by the flow as RxFlow apps write it.
    var root: ViewController { get }
    func navigate(to step: Step) -> FlowContributors
}

enum FlowContributors {
    case none
    case one(flowContributor: FlowContributor)
}

enum FlowContributor {
    /// A screen and the stepper that drives it.
    case contribute(withNextPresentable: ViewController, withNextStepper: Stepper)
    /// A child flow, started with its stepper's first step; the parent shows its root.
    case child(Flow, withNextStepper: OneStepper)
}

/// Runs one flow: listens to its steppers, and keeps child flows' coordinators until their root is dismissed.
final class FlowCoordinator {
    let flow: Flow
    private var children: [FlowCoordinator] = []

    init(flow: Flow) {
        self.flow = flow
    }

    /// Starts the root flow with `stepper`'s step.
    func coordinate(
        with stepper: OneStepper,
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function, filePath: StaticString = #filePath
    ) {
        traceRoot(flow, file: file, line: line, function: function, filePath: filePath)
        handle(stepper.step)
    }

    func handle(_ step: Step) {
        guard case .one(let contributor) = flow.navigate(to: step) else { return }
        switch contributor {
        case .contribute(_, let stepper):
            stepper.emit = { [weak self] step in self?.handle(step) }
        case .child(let childFlow, let stepper):
            let child = FlowCoordinator(flow: childFlow)
            children.append(child)
            traceChild(childFlow, of: flow)
            // RxFlow's rx.dismissed: the child flow ends when its root is dismissed or popped.
            let root = childFlow.root
            ViewController.observeDisappearance { [weak self, weak child, weak root] screen in
                guard let self, let child, screen === root, screen.isBeingDismissed || screen.isMovingFromParent else { return }
                self.children.removeAll { $0 === child }
                traceEnded(child.flow, of: self.flow)
            }
            child.handle(stepper.step)
        }
    }
}
