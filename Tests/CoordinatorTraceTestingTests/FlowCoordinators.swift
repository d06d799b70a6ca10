import CoordinatorTrace

/// A small coordinator base that reports to the tracer it is given, as code under test would.
class FlowCoordinator {
    let tracer: Tracer
    private(set) var children: [FlowCoordinator] = []
    weak var parent: FlowCoordinator?

    init(tracer: Tracer) {
        self.tracer = tracer
    }

    func addChild(_ child: FlowCoordinator, file: StaticString = #fileID, line: UInt = #line) {
        children.append(child)
        child.parent = self
        tracer.added(child, to: self, file: file, line: line)
    }

    func removeChild(_ child: FlowCoordinator) {
        children.removeAll { $0 === child }
        tracer.removed(child, from: self)
    }
}

final class RootCoordinator: FlowCoordinator {
    func start(file: StaticString = #fileID, line: UInt = #line) {
        tracer.added(self, to: nil, file: file, line: line)
    }
}

final class DetailCoordinator: FlowCoordinator {}

/// A child that keeps its parent alive: the classic cycle, so neither ever deinits.
final class CyclicDetailCoordinator: FlowCoordinator {
    var strongParent: FlowCoordinator?
}

final class Screen {}

/// The flows the assertions are proven on; each builds its coordinators inside, so nothing outlives it by accident.
enum Flows {
    /// A detail shown, its screen closed, and the detail removed: everything but the root goes.
    @discardableResult
    static func clean(_ tracer: Tracer) -> RootCoordinator {
        let root = RootCoordinator(tracer: tracer)
        root.start()
        let detail = DetailCoordinator(tracer: tracer)
        root.addChild(detail)
        var screen: Screen? = Screen()
        tracer.bind(detail, to: screen!)
        screen = nil
        root.removeChild(detail)
        return root
    }

    /// A detail whose screen closes while it holds its parent strongly and is never removed: both stay.
    @discardableResult
    static func cycle(_ tracer: Tracer) -> RootCoordinator {
        let root = RootCoordinator(tracer: tracer)
        root.start()
        let detail = CyclicDetailCoordinator(tracer: tracer)
        root.addChild(detail)
        detail.strongParent = root
        var screen: Screen? = Screen()
        tracer.bind(detail, to: screen!)
        screen = nil
        return root
    }
}

/// docs/HOOK.md's shape: a home that opens a settings flow; a swipe-down frees the settings screen without any callback.
final class HomeCoordinator: FlowCoordinator {
    /// When true, the home removes the settings child once its screen is gone, as the fix does.
    let removesFinishedChildren: Bool
    private var screens: [Screen] = []

    init(tracer: Tracer, removesFinishedChildren: Bool) {
        self.removesFinishedChildren = removesFinishedChildren
        super.init(tracer: tracer)
    }

    func start() {
        tracer.added(self, to: nil)
    }

    /// Shows settings modally and returns the function that swipes it down.
    func showSettings() -> () -> Void {
        let settings = DetailCoordinator(tracer: tracer)
        addChild(settings)
        let screen = Screen()
        screens.append(screen)
        tracer.bind(settings, to: screen)
        return { [self] in
            screens.removeAll { $0 === screen }
            if removesFinishedChildren { removeChild(settings) }
        }
    }
}

/// A tab that keeps itself through its selection closure (the classic tab-item cycle), and its children with it.
final class TabFlowCoordinator: FlowCoordinator {
    var onSelect: (() -> Void)?

    func start(children count: Int) {
        for _ in 0..<count {
            let child = DetailCoordinator(tracer: tracer)
            addChild(child)
            tracer.dismissed(child)
        }
        onSelect = { [self] in _ = children.count }
    }
}

extension Flows {
    /// A tab removed from its root while its closure keeps it: it and its `children` finished children stay.
    static func tabCycle(_ tracer: Tracer, children: Int) -> RootCoordinator {
        let root = RootCoordinator(tracer: tracer)
        root.start()
        let tab = TabFlowCoordinator(tracer: tracer)
        root.addChild(tab)
        tab.start(children: children)
        root.removeChild(tab)
        return root
    }
}
