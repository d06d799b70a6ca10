import CoordinatorLens
import CoordinatorTrace
import Foundation
import Testing

/// A coordinator that owns its screen, as XCoordinator's `rootViewController` and many in-house routers do: the
/// screen cannot deallocate while the coordinator lives, so only its departure can tell that the coordinator is done.
private final class OwningCoordinator {
    let screen = Screen()
}

@Suite struct ScreenDepartureTests {
    @Test func aScreenThatLeavesDismissesTheCoordinatorThatOwnsIt() throws {
        let tracer = Tracer()
        let sink = MemorySink()
        tracer.start(app: "Router", sink: sink, options: TraceOptions(grace: 0.05))
        let router = Coordinator()
        let product = OwningCoordinator()
        tracer.added(router, to: nil)
        tracer.added(product, to: router)
        tracer.bind(product, to: product.screen)
        tracer.screenLeft(product.screen)
        tracer.end()
        withExtendedLifetime((router, product)) {}

        let log = try session(from: sink)
        let dismissal = try #require(records(log).first { if case .dismiss = $0.event { true } else { false } })
        #expect(dismissal.event == .dismiss(id: 2, via: .screenLeft))
        #expect(dismissal.site == nil, "the caller of screenLeft is a UI-layer bridge: no site unless it gives one")
        let snapshot = try log.snapshot(grace: 0.05)
        #expect(snapshot.node(2)?.verdict == .retained)
        #expect(snapshot.node(2)?.reasonKind == .stillChild)
        #expect(snapshot.node(2)?.dismissedVia == .screenLeft)
    }

    @Test func aScreenNoCoordinatorIsBoundToNowSendsNothing() throws {
        let tracer = Tracer()
        let sink = MemorySink()
        tracer.start(app: "Router", sink: sink, options: TraceOptions(grace: 0))
        let coordinator = Coordinator()
        let first = Screen()
        let second = Screen()
        let stranger = Screen()
        tracer.added(coordinator, to: nil)
        tracer.bind(coordinator, to: first)
        tracer.bind(coordinator, to: second)
        // The coordinator moved on to its second screen: the first one leaving says nothing about it.
        tracer.screenLeft(first)
        tracer.screenLeft(stranger)
        tracer.end()
        withExtendedLifetime((coordinator, first, second, stranger)) {}
        #expect(!events(try session(from: sink)).contains { if case .dismiss = $0 { true } else { false } })
    }

    @Test func everyCoordinatorBoundToTheScreenIsDismissedOnce() throws {
        let tracer = Tracer()
        let sink = MemorySink()
        tracer.start(app: "Router", sink: sink, options: TraceOptions(grace: 0))
        let flow = Coordinator()
        let step = Coordinator()
        let navigation = Screen()
        tracer.added(flow, to: nil)
        tracer.added(step, to: flow)
        tracer.bind(flow, to: navigation)
        tracer.bind(step, to: navigation)
        tracer.screenLeft(navigation)
        tracer.screenLeft(navigation)
        tracer.end()
        withExtendedLifetime((flow, step, navigation)) {}
        let dismissals = events(try session(from: sink)).filter { if case .dismiss = $0 { true } else { false } }
        #expect(dismissals == [.dismiss(id: 1, via: .screenLeft), .dismiss(id: 2, via: .screenLeft)])
    }

    @Test func aScreenFreedAfterItLeftIsNotASecondDismissal() throws {
        let tracer = Tracer()
        let sink = MemorySink()
        tracer.start(app: "Router", sink: sink, options: TraceOptions(grace: 0))
        let coordinator = Coordinator()
        var screen: Screen? = Screen()
        tracer.added(coordinator, to: nil)
        tracer.bind(coordinator, to: screen!)
        tracer.screenLeft(screen!)
        screen = nil
        tracer.end()
        withExtendedLifetime(coordinator) {}
        let dismissals = events(try session(from: sink)).filter { if case .dismiss = $0 { true } else { false } }
        #expect(dismissals == [.dismiss(id: 1, via: .screenLeft)])
    }

    @Test func expectedCountsGoOutFirstAndJudgeTheOlderOnesBeyondThem() throws {
        let tracer = Tracer()
        let sink = MemorySink()
        tracer.start(
            app: "Router", sink: sink,
            options: TraceOptions(grace: 0, expectedCounts: [ExpectedCount(OtherCoordinator.self, atMost: 1, per: .parent)])
        )
        let router = Coordinator()
        let products = (0..<3).map { _ in OtherCoordinator() }
        tracer.added(router, to: nil)
        for product in products { tracer.added(product, to: router) }
        tracer.expect(ExpectedCount(Coordinator.self, atMost: 0))
        tracer.end()
        withExtendedLifetime((router, products)) {}

        let log = try session(from: sink)
        #expect(events(log).first == .expect(AliveLimit(type: "OtherCoordinator", maximum: 1, scope: .parent)))
        #expect(events(log).contains(.expect(AliveLimit(type: "Coordinator", maximum: 0))))
        let snapshot = try log.snapshot(grace: 0)
        #expect(snapshot.node(2)?.verdict == .retained)
        #expect(snapshot.node(3)?.verdict == .retained)
        #expect(snapshot.node(4)?.verdict == .alive, "the newest one is the one on screen")
        #expect(snapshot.node(2)?.reasonKind == .overLimit)
        #expect(
            snapshot.node(2)?.reason
                == "one of 3 OtherCoordinator alive at once under Coordinator#1, where at most 1 is expected and it is not among the newest")
        #expect(snapshot.node(1)?.verdict == .retained, "no Coordinator was expected at all")
    }
}

/// A screen shown again after it left: the coordinator bound to it again is alive in the stream's verdicts, and a
/// departure whose caller names its own site keeps that site.
@Suite struct ShownAgainTests {
    final class Coordinator {}
    final class Screen {}

    @Test func aCoordinatorBoundAgainAfterItsScreenLeftIsAliveAtTheEnd() throws {
        let tracer = Tracer()
        let sink = MemorySink()
        tracer.start(app: "Browser", sink: sink, options: TraceOptions(grace: 0.05))
        let browser = Coordinator()
        let library = Coordinator()
        let screen = Screen()
        tracer.added(browser, to: nil)
        tracer.added(library, to: browser)
        tracer.bind(library, to: screen)
        tracer.screenLeft(screen, file: #fileID, line: #line)
        // clock: the grace (0.05 s) passes in the events' own times before the screen is shown again.
        Thread.sleep(forTimeInterval: 0.1)
        tracer.bind(library, to: screen)
        tracer.end()
        withExtendedLifetime((browser, library, screen)) {}

        let log = try session(from: sink)
        let dismissal = try #require(records(log).first { if case .dismiss = $0.event { true } else { false } })
        #expect(dismissal.site?.file == #fileID)
        let snapshot = try log.snapshot(grace: 0.05)
        #expect(snapshot.node(2)?.verdict == .alive)
        #expect(snapshot.node(2)?.shownAgain?.count == 1)
    }

    /// A cached screen presented anew (the UI layer reports it appearing, as the hook's own appear watch does on
    /// Apple platforms): its coordinator is bound again without a call site, alive at the end, and `end()` does not
    /// wait for it. An appearance of a screen that never left, or of one whose coordinator was bound elsewhere since,
    /// sends nothing.
    @Test func aScreenThatAppearsAgainBringsItsCoordinatorBack() throws {
        let tracer = Tracer()
        let sink = MemorySink()
        tracer.start(app: "Browser", sink: sink, options: TraceOptions(grace: 5))
        let browser = Coordinator()
        let library = Coordinator()
        let tabs = Coordinator()
        let screen = Screen()
        let tabScreen = Screen()
        let otherScreen = Screen()
        tracer.added(browser, to: nil)
        tracer.added(library, to: browser)
        tracer.added(tabs, to: browser)
        tracer.bind(library, to: screen)
        tracer.bind(tabs, to: tabScreen)
        tracer.screenAppeared(screen)
        tracer.screenLeft(screen)
        tracer.screenLeft(tabScreen)
        tracer.bind(tabs, to: otherScreen)
        tracer.screenAppeared(tabScreen)
        tracer.screenAppeared(screen)
        tracer.screenAppeared(screen)
        let started = Date()
        tracer.end()
        #expect(Date().timeIntervalSince(started) < 4, "nothing done is left to wait for")
        withExtendedLifetime((browser, library, tabs, screen, tabScreen, otherScreen)) {}

        let log = try session(from: sink)
        let binds = records(log).filter { if case .bind = $0.event { true } else { false } }
        #expect(
            binds.map(\.event) == [
                .bind(id: 2, screen: "Screen"), .bind(id: 3, screen: "Screen"), .bind(id: 3, screen: "Screen"), .bind(id: 2, screen: "Screen"),
            ])
        #expect(binds.last?.site == nil, "the appearance names no call site")
        let snapshot = try log.snapshot(grace: 5)
        #expect(snapshot.node(2)?.verdict == .alive)
        #expect(snapshot.node(2)?.shownAgain?.count == 1)
        #expect(snapshot.node(3)?.verdict == .alive)
    }

    /// Past the registry's pruning of departed screens (once 64 are kept, then whenever their number doubles), the
    /// freed ones are forgotten and the living ones still bring their coordinators back when they appear again.
    @Test func departedScreensArePrunedWithoutLosingTheLivingOnes() throws {
        let tracer = Tracer()
        let sink = MemorySink()
        let options = TraceOptions(grace: 0.05, retainerSearch: RetainerSearchOptions(isEnabled: false))
        tracer.start(app: "Many", sink: sink, options: options)
        let root = Coordinator()
        tracer.added(root, to: nil)
        let children = (0..<300).map { _ in Coordinator() }
        var screens: [Screen?] = children.map { _ in Screen() }
        for (child, screen) in zip(children, screens) {
            tracer.added(child, to: root)
            tracer.bind(child, to: screen!)
        }
        for index in screens.indices {
            tracer.screenLeft(screens[index]!)
            // Two in three are freed once they left, so each pruning pass finds lists to drop.
            if index % 3 != 0 { screens[index] = nil }
        }
        for index in stride(from: 0, to: screens.count, by: 3) { tracer.screenAppeared(screens[index]!) }
        tracer.end()
        withExtendedLifetime((root, children, screens)) {}

        let snapshot = try session(from: sink).snapshot(grace: 0.05)
        let shownAgain = children.indices.filter { (snapshot.node(CoordinatorID($0 + 2))?.shownAgain?.count ?? 0) == 1 }
        #expect(shownAgain == Array(stride(from: 0, to: children.count, by: 3)))
    }
}
