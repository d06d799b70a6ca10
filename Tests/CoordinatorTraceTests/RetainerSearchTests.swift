#if RetainerSearch
// The search's own tests: a build without the RetainerSearch trait has no search to test.
import CoordinatorTrace
import Foundation
import Testing

/// The retainer search against a zoo of holders, each the way real apps hold a coordinator they meant to let go: every
/// strong one is named down to its field, and no weak or unowned reference is called strong.
@Suite struct RetainerSearchTests {
    final class Coordinator {
        var screen: Screen?
        var router: Router?
        var children: [Coordinator] = []
        var task: Task<Void, Never>?
        var work: DispatchWorkItem?
        func finish() {}
    }

    final class Screen {
        var onSend: (() -> Void)?
        var onDone: () -> Void = {}
        var delegate: Coordinator?
        weak var weakDelegate: Coordinator?
        unowned(unsafe) var unownedDelegate: Coordinator
        var coordinator: Coordinator?
        var handlers: [() -> Void] = []
        init(_ owner: Coordinator) { unownedDelegate = owner }
    }

    final class Router {
        var completions: [String: () -> Void] = [:]
        var state: State = .idle
        private var byScreen: [ObjectIdentifier: () -> Void] = [:]

        /// As routers write it: the completion arrives as a parameter and is kept in a generic dictionary, so what
        /// is stored is a reabstraction thunk whose context holds the closure.
        func present(_ screen: Screen, onDismiss completion: @escaping () -> Void) {
            byScreen[ObjectIdentifier(screen)] = completion
        }
    }

    enum State {
        case idle
        case presenting(Coordinator, animated: Bool)
    }

    /// A root `App` coordinator with a live `Home` child bound to a screen, and a `Share` coordinator the app removed:
    /// `hold` makes something keep it. Returns what the search says of it. Living coordinators and their screens are
    /// where paths start, so a path through Home's screen starts at the screen.
    func search(
        sendsKeyText: Bool = false, timeBudget: Double = 0.25,
        _ hold: (_ app: Coordinator, _ home: Coordinator, _ homeScreen: Screen, _ share: Coordinator) -> Void
    ) throws -> RetainerPath {
        let tracer = Tracer()
        tracer.start(
            app: "Zoo", sink: MemorySink(),
            options: TraceOptions(
                grace: 0, retainerSearch: RetainerSearchOptions(timeBudget: timeBudget, totalTimeBudget: timeBudget * 8, sendsKeyText: sendsKeyText)))
        let app = Coordinator()
        let home = Coordinator()
        let homeScreen = Screen(home)
        home.screen = homeScreen
        var share: Coordinator? = Coordinator()
        tracer.added(app, to: nil)
        tracer.added(home, to: app)
        tracer.bind(home, to: homeScreen)
        tracer.added(share!, to: home)
        hold(app, home, homeScreen, share!)
        tracer.removed(share!, from: home)
        let id = 3
        share = nil
        let paths = tracer.searchRetainers()
        tracer.end()
        withExtendedLifetime((app, home, homeScreen)) {}
        return try #require(paths.first { $0.coordinator == id }, "the search looked at Share#3: \(paths)")
    }

    @Test func aClosureInAScreenPropertyThatCapturesItStrongly() throws {
        let found = try search { _, home, screen, share in
            let note = "sent"
            screen.onSend = {
                share.finish()
                _ = note
            }
            _ = home
        }
        #expect(found.outcome == .live)
        #expect(
            found.description
                == "Screen (screen of Coordinator#2).onSend (captured by closure #1 in closure #1 in RetainerSearchTests.aClosureInAScreenPropertyThatCapturesItStrongly()) › Coordinator#3",
            "\(found)")
    }

    @Test func aClosureThatCapturesOnlyItIsItsContext() throws {
        let found = try search { _, _, screen, share in screen.onSend = { share.finish() } }
        #expect(
            found.description
                == "Screen (screen of Coordinator#2).onSend (closure #1 in closure #1 in RetainerSearchTests.aClosureThatCapturesOnlyItIsItsContext()) › Coordinator#3",
            "\(found)")
    }

    @Test func aBoundMethod() throws {
        let found = try search { _, _, screen, share in screen.onDone = share.finish }
        #expect(found.steps.last?.field == "onDone")
        #expect(found.steps.last?.kind == .closure, "\(found)")
    }

    @Test(arguments: [false, true]) func aRoutersDictionaryOfCompletionClosures(sendsKeyText: Bool) throws {
        let found = try search(sendsKeyText: sendsKeyText) { app, _, _, share in
            let router = Router()
            app.router = router
            let animated = true
            router.completions["ShareViewController"] = {
                share.finish()
                _ = animated
            }
        }
        // The key's text leaves the process only when the options allow it; otherwise its type and a hash of it.
        let key = sendsKeyText ? #""ShareViewController""# : #"String#[0-9a-f]{6}"#
        let expected = try Regex(
            "^Coordinator#1\\.router › Router\\.completions\\[\(key)\\] \\(captured by closure #1 in closure #1 in RetainerSearchTests\\.aRoutersDictionaryOfCompletionClosures\\(sendsKeyText:\\)\\) › Coordinator#3$"
        )
        #expect(found.description.wholeMatch(of: expected) != nil, "\(found)")
        #expect(sendsKeyText || !found.description.contains("ShareViewController"))
    }

    @Test func aCompletionPassedToTheRouterAndKeptByScreen() throws {
        let found = try search { app, home, _, share in
            let router = Router()
            app.router = router
            router.present(Screen(share)) { [weak home] in home?.children.removeAll { $0 === share } }
        }
        #expect(
            found.description
                == "Coordinator#1.router › Router.byScreen[ObjectIdentifier] (captured by closure #1 in closure #1 in RetainerSearchTests.aCompletionPassedToTheRouterAndKeptByScreen()) › Coordinator#3",
            "\(found)")
    }

    @Test func aStrongDelegateBackReference() throws {
        let found = try search { _, _, screen, share in screen.delegate = share }
        #expect(found.description == "Screen (screen of Coordinator#2).delegate › Coordinator#3", "\(found)")
    }

    @Test func aPropertyCycleThroughAScreen() throws {
        let found = try search { _, _, _, share in
            let screen = Screen(share)
            share.screen = screen
            screen.coordinator = share
        }
        #expect(found.outcome == .cycle)
        #expect(found.description == "Coordinator#3.screen › Screen.coordinator › Coordinator#3", "\(found)")
    }

    @Test func aCapturedVarBox() throws {
        let found = try search { _, _, screen, share in
            var current: Coordinator? = share
            let tag = 7
            screen.onSend = {
                current?.finish()
                current = nil
                _ = tag
            }
        }
        #expect(found.steps.last?.kind == .capturedVar, "\(found)")
        #expect(found.steps.last?.field == "onSend")
    }

    @Test func anArrayOfClosures() throws {
        let found = try search { _, _, screen, share in
            let tag = 7
            screen.handlers = [
                {},
                {
                    share.finish()
                    _ = tag
                },
            ]
        }
        #expect(found.steps.last?.field == "handlers[1]", "\(found)")
        #expect(found.steps.last?.kind == .capture)
    }

    @Test func anEnumPayloadInAStruct() throws {
        let found = try search { app, _, _, share in
            let router = Router()
            router.state = .presenting(share, animated: true)
            app.router = router
        }
        #expect(found.steps.last?.field == "state.presenting", "\(found)")
    }

    /// A singleton's array: the search starts from the app's statics too, named by their symbol.
    @Test func aStaticSingletonHoldsIt() throws {
        let found = try search { _, _, _, share in GlobalRegistry.shared.observers.append(share) }
        GlobalRegistry.shared.observers.removeAll()
        #expect(found.outcome == .live, "\(found)")
        #expect(found.description == "static GlobalRegistry.shared › GlobalRegistry.observers[0] (element) › Coordinator#3", "\(found)")
    }

    /// A static closure, as a refresh control's action kept by a static: the closure's capture, named by the static.
    @Test func aStaticClosureHoldsIt() throws {
        let found = try search { _, _, _, share in RefreshActions.onRefresh = { share.finish() } }
        RefreshActions.onRefresh = nil
        #expect(found.outcome == .live, "\(found)")
        #expect(found.description.hasPrefix("static RefreshActions.onRefresh"), "\(found)")
        #expect(found.description.hasSuffix("› Coordinator#3"), "\(found)")
    }

    /// A global `var` of the app's module.
    @Test func aGlobalVariableHoldsIt() throws {
        let found = try search { _, _, _, share in keptByAGlobal = share }
        keptByAGlobal = nil
        #expect(found.description == "CoordinatorTraceTests.keptByAGlobal › Coordinator#3", "\(found)")
    }

    /// An unbalanced retain: nothing in memory holds it, and the line says what the search started from.
    @Test func anUnbalancedRetainIsNotReachedAndSaysWhatWasSearched() throws {
        var retained: Unmanaged<Coordinator>?
        let found = try search { _, _, _, share in retained = Unmanaged.passRetained(share) }
        retained?.release()
        #expect(found.outcome == .unreachable, "\(found)")
        #expect(found.description.contains("not reached from what the search started from, and in no cycle"), "\(found)")
        #expect(found.description.contains("searched from the living coordinators and screens (3), the globals and statics ("), "\(found)")
        #expect(found.description.contains(", from 1 image symbol table), the other leaks (0)"), "\(found)")
        // Back from the leak, or (under AddressSanitizer, whose malloc the search does not walk) why not.
        #expect(
            found.description.contains("then back from it through")
                || found.description.contains("not searched back from it: the heap is not glibc's malloc"), "\(found)")
        #expect(!found.description.contains("a closure context that does not read"), "a global's plain words are no branch: \(found)")
    }

    @Test func weakCapturesWeakAndUnownedReferencesAreNotStrong() throws {
        var retained: Unmanaged<Coordinator>?
        let found = try search { _, _, screen, share in
            screen.onSend = { [weak share] in share?.finish() }
            screen.weakDelegate = share
            screen.unownedDelegate = share
            retained = Unmanaged.passRetained(share)
        }
        retained?.release()
        #expect(found.outcome == .unreachable, "\(found)")
    }

    @Test func aSearchPastItsBudgetSaysSo() throws {
        let tracer = Tracer()
        tracer.start(
            app: "Zoo", sink: MemorySink(),
            options: TraceOptions(grace: 0, retainerSearch: RetainerSearchOptions(maximumObjects: 5)))
        let app = Coordinator()
        var chain: [Coordinator] = [app]
        for _ in 0..<20 {
            let next = Coordinator()
            chain.last!.children.append(next)
            chain.append(next)
        }
        let share = Coordinator()
        chain.last!.children.append(share)
        tracer.added(app, to: nil)
        tracer.added(share, to: app)
        tracer.removed(share, from: app)
        let paths = tracer.searchRetainers()
        tracer.end()
        withExtendedLifetime((chain, share)) {}
        #expect(paths.map(\.outcome) == [.budget])
        #expect(paths.first?.description.contains("stopped at its budget") == true)
    }
}

/// A static closure the app sets and forgets: what a refresh control's action kept by a static is.
enum RefreshActions {
    nonisolated(unsafe) static var onRefresh: (() -> Void)?
}

/// A global variable of the test module.
nonisolated(unsafe) var keptByAGlobal: AnyObject?

/// What a notification centre or a singleton is to the search: reachable from no coordinator or screen.
final class GlobalRegistry: @unchecked Sendable {
    static let shared = GlobalRegistry()
    var observers: [AnyObject] = []
}
#endif
